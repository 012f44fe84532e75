import { createHash, generateKeyPairSync } from 'node:crypto';
import ssh2, { type SFTPWrapper } from 'ssh2';

const { Server, Client, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface TestServer {
  readonly port: number;
  /** What was written at each offset (copied). */
  readonly written: Map<number, Buffer>;
  /** The memory each WRITE's data lay in, in order. */
  readonly writeMemory: ArrayBufferLike[];
  /** The server side of each SFTP session, as accepted. */
  readonly sessions: SFTPWrapper[];
  close(): void;
}

/** An SSH server whose SFTP subsystem keeps what is written to each offset (copied) and answers OK. */
export async function sftpServer(reuseIncomingBuffer = false): Promise<TestServer> {
  const written = new Map<number, Buffer>();
  const writeMemory: ArrayBufferLike[] = [];
  const sessions: SFTPWrapper[] = [];
  const hostKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  // Windows' banner: ssh2 then writes up to 256 KiB at once (to other servers 32 KiB).
  const server = new Server({ hostKeys: [hostKey], ident: 'OpenSSH_for_Windows_8.1' }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => ctx.accept());
    client.on('ready', () =>
      client.on('session', (accept) =>
        accept().on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          sessions.push(sftp);
          (sftp as SFTPWrapper & { reuseIncomingBuffer: boolean }).reuseIncomingBuffer = reuseIncomingBuffer;
          sftp.on('OPEN', (reqid) => sftp.handle(reqid, Buffer.from([0, 0, 0, 1])));
          sftp.on('WRITE', (reqid, _handle, offset, data) => {
            written.set(offset, Buffer.from(data));
            writeMemory.push(data.buffer);
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
        }),
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { port, written, writeMemory, sessions, close: () => server.close() };
}

export async function connectSftp(port: number): Promise<{ sftp: SFTPWrapper; end: () => void }> {
  const client = new Client();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve).once('error', reject);
    client.connect({
      host: '127.0.0.1',
      port,
      username: 'Administrator',
      password: 'x',
      algorithms: { cipher: ['aes128-gcm@openssh.com'] },
    });
  });
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
    client.sftp((err, s) => (err ? reject(err) : resolve(s))),
  );
  return { sftp, end: () => client.end() };
}

export async function writeAll(
  sftp: SFTPWrapper,
  data: Buffer,
  chunk: number,
  inFlight: number,
): Promise<void> {
  const handle = await new Promise<Buffer>((resolve, reject) =>
    sftp.open('C:\\staging\\file.part', 'w', (err, h) => (err ? reject(err) : resolve(h))),
  );
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < data.length) {
      const at = next;
      next += chunk;
      await new Promise<void>((resolve, reject) =>
        sftp.write(handle, data, at, Math.min(chunk, data.length - at), at, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

export const digest = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
export const joined = (written: Map<number, Buffer>): Buffer =>
  Buffer.concat([...written.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]));
