// patches/ssh2@1.17.0.patch, the upload path: an AES-GCM packet's memory is used again once the socket has
// written it, and an SFTP write sends its data as a view of the caller's buffer instead of a copy. Without
// the patch the client allocates a new 32 KiB packet per packet and a new 254 KiB buffer per write, and
// uploading 7 GB to 50 hosts kept V8's garbage collector busier than the JavaScript.
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { SFTPWrapper } from 'ssh2';
import {
  connectSftp,
  digest,
  joined,
  sftpServer,
  writeAll,
  type TestServer,
} from './sftp-test-server.test-helper.js';

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

test('a server with reuseIncomingBuffer assembles every multi-packet WRITE in one buffer, bytes intact', async (t) => {
  const CHUNK = 254 * 1024; // 8 channel packets each: assembled by the server's SFTP parser
  const data = randomBytes(CHUNK * 16);
  const run = async (reuse: boolean): Promise<TestServer> => {
    const server = await sftpServer(reuse);
    const { sftp, end } = await connectSftp(server.port);
    await writeAll(sftp, data, CHUNK, 8);
    end();
    server.close();
    return server;
  };
  const reusing = await run(true);
  t.is(digest(joined(reusing.written)), digest(data));
  t.is(new Set(reusing.writeMemory).size, 1, 'one assembly buffer for 16 writes');
  // ssh2's own behaviour (the option unset): a new buffer for each request.
  const plain = await run(false);
  t.is(digest(joined(plain.written)), digest(data));
  t.is(new Set(plain.writeMemory).size, 16);
});

/** One SFTP request as the client sends it: length, type, request id, then `body`. */
function request(type: number, reqid: number, body: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUInt32BE(5 + body.length, 0);
  head[4] = type;
  head.writeUInt32BE(reqid, 5);
  return Buffer.concat([head, body]);
}

const sshString = (b: Buffer): Buffer => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
const HANDLE = Buffer.from([0xaa, 0xbb, 0xcc, 0xdd]);

/** Hands `packet` to the server's SFTP parser in two pieces, as two channel packets would. */
function pushSplit(sftp: SFTPWrapper, packet: Buffer): void {
  const push = (sftp as unknown as { push(b: Buffer): void }).push.bind(sftp);
  push(packet.subarray(0, 8));
  push(packet.subarray(8));
}

test('reuseIncomingBuffer reuses its buffer for WRITEs only: a CLOSE split between packets keeps its handle', async (t) => {
  const server = await sftpServer(true);
  const { end } = await connectSftp(server.port);
  t.teardown(() => (end(), server.close()));
  const sftp = server.sessions[0]!;
  const kept: Buffer[] = [];
  sftp.prependListener('CLOSE', (_reqid: number, handle: Buffer) => kept.push(handle));
  // WRITEs of another handle: where the CLOSE's handle lay, the next WRITE puts other bytes.
  const other = Buffer.from([1, 2, 3, 4]);
  const write = (fill: number): Buffer =>
    request(6, 7, Buffer.concat([sshString(other), Buffer.alloc(8), sshString(Buffer.alloc(100, fill))]));
  pushSplit(sftp, write(0x11)); // the first assembled WRITE: the reused buffer is made
  pushSplit(sftp, request(4, 8, sshString(HANDLE))); // a CLOSE that straddles two packets
  pushSplit(sftp, write(0x22)); // the next WRITE reuses the buffer
  t.is(kept.length, 1);
  t.deepEqual(kept[0]!.subarray(0, 4), HANDLE, 'the CLOSE handle was not overwritten by the next WRITE');
  t.is(server.written.get(0)?.[0], 0x22);
});

test('an upload reuses packet memory and does not copy each write: the bytes still arrive whole, in order', async (t) => {
  const server = await sftpServer();
  const { sftp, end } = await connectSftp(server.port);
  const CHUNK = 254 * 1024;
  const data = randomBytes(CHUNK * 64); // about 16 MiB: 64 writes, about 520 packets of 32 KiB
  // 32 writes in flight: 8 MiB, four times the channel's window, so most wait in ssh2's buffer.
  const allocations = await largeAllocations(() => writeAll(sftp, data, CHUNK, 32));
  end();
  server.close();
  t.is(digest(joined(server.written)), digest(data));
  t.is(allocations.get('write') ?? 0, 0, 'no 254 KiB copy per SFTP write');
  // A packet is allocated only when every pooled one is still with the socket (here 30-80 of them;
  // without the patch, one for each of the about 505 sent).
  const packets = (allocations.get('allocPacket') ?? 0) + (allocations.get('takePacket') ?? 0);
  t.true(packets < 250, `${packets} packets allocated for about 505 sent`);
});
