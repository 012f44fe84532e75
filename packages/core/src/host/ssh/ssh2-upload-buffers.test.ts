// patches/ssh2@1.17.0.patch, the upload path: an AES-GCM packet's memory is used again once the socket has
// written it, and an SFTP write sends its data as a view of the caller's buffer instead of a copy. Without
// the patch the client allocates a new 32 KiB packet per packet and a new 254 KiB buffer per write, and
// uploading 7 GB to 50 hosts kept V8's garbage collector busier than the JavaScript.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import test from 'ava';
import ssh2, { type SFTPWrapper } from 'ssh2';

const { Server, Client, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

/** An SSH server whose SFTP subsystem keeps what is written to each offset (copied) and answers OK. */
async function sftpServer(): Promise<{ port: number; written: Map<number, Buffer>; close(): void }> {
  const written = new Map<number, Buffer>();
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
          sftp.on('OPEN', (reqid) => sftp.handle(reqid, Buffer.from([0, 0, 0, 1])));
          sftp.on('WRITE', (reqid, _handle, offset, data) => {
            written.set(offset, Buffer.from(data));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
        }),
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, written, close: () => server.close() };
}

async function connectSftp(port: number): Promise<{ sftp: SFTPWrapper; end: () => void }> {
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

/** Counts the buffers of 16 KiB or more allocated while `run` runs, by the function that asked for them. */
async function largeAllocations(run: () => Promise<void>): Promise<Map<string, number>> {
  const byCaller = new Map<string, number>();
  const saved = {
    allocUnsafe: Object.getOwnPropertyDescriptor(Buffer, 'allocUnsafe')!,
    allocUnsafeSlow: Object.getOwnPropertyDescriptor(Buffer, 'allocUnsafeSlow')!,
  };
  const unsafe = Buffer.allocUnsafe.bind(Buffer);
  const slow = Buffer.allocUnsafeSlow.bind(Buffer);
  const count = (size: number): void => {
    if (size < 16384) return;
    const frames = (new Error().stack ?? '').split('\n').slice(3);
    const caller = /at (?:\S+\.)?(allocPacket|write|takePacket)\b/.exec(frames.slice(0, 3).join('\n'));
    const key = caller?.[1] ?? 'other';
    byCaller.set(key, (byCaller.get(key) ?? 0) + 1);
  };
  Buffer.allocUnsafe = (size: number) => (count(size), unsafe(size));
  Buffer.allocUnsafeSlow = (size: number) => (count(size), slow(size));
  try {
    await run();
  } finally {
    Object.defineProperty(Buffer, 'allocUnsafe', saved.allocUnsafe);
    Object.defineProperty(Buffer, 'allocUnsafeSlow', saved.allocUnsafeSlow);
  }
  return byCaller;
}

test('an upload reuses packet memory and does not copy each write: the bytes still arrive whole, in order', async (t) => {
  const server = await sftpServer();
  const { sftp, end } = await connectSftp(server.port);
  const CHUNK = 254 * 1024;
  const data = randomBytes(CHUNK * 64); // about 16 MiB: 64 writes, about 520 packets of 32 KiB
  const handle = await new Promise<Buffer>((resolve, reject) =>
    sftp.open('C:\\staging\\file.part', 'w', (err, h) => (err ? reject(err) : resolve(h))),
  );
  const allocations = await largeAllocations(async () => {
    // 32 writes in flight: 8 MiB, four times the channel's window, so most wait in ssh2's buffer.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < data.length) {
        const at = next;
        next += CHUNK;
        await new Promise<void>((resolve, reject) =>
          sftp.write(handle, data, at, CHUNK, at, (err) => (err ? reject(err) : resolve())),
        );
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
  });
  end();
  server.close();
  const received = Buffer.concat([...server.written.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]));
  t.is(createHash('sha256').update(received).digest('hex'), createHash('sha256').update(data).digest('hex'));
  t.is(allocations.get('write') ?? 0, 0, 'no 254 KiB copy per SFTP write');
  // A packet is allocated only when every pooled one is still with the socket (here 30-80 of them;
  // without the patch, one for each of the about 505 sent).
  const packets = (allocations.get('allocPacket') ?? 0) + (allocations.get('takePacket') ?? 0);
  t.true(packets < 250, `${packets} packets allocated for about 505 sent`);
});
