import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadBlocks } from './block-pool.js';
import { connectSftp, digest, joined, sftpServer } from './sftp-test-server.test-helper.js';
import { sftpUpload } from './sftp-upload.js';
import type { ResolvedSshOptions } from './ssh-options.js';

const CHUNK = 64 * 1024;

test('an upload gives its read blocks back once acknowledged, and the next upload reads into them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sftp-upload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = randomBytes(CHUNK * 8 * 3 + 1234); // three whole blocks of 8 chunks and a short one
  writeFileSync(join(dir, 'payload.bin'), data);
  const server = await sftpServer();
  const { sftp, end } = await connectSftp(server.port);
  t.teardown(() => (end(), server.close()));
  uploadBlocks.trim();
  const stats = { sftpRequests: 0, bytesSent: 0 };
  const o = { sftpChunkSize: CHUNK, sftpConcurrency: 4 } as ResolvedSshOptions;
  const upload = (): Promise<void> =>
    sftpUpload(sftp, { localPath: join(dir, 'payload.bin') }, 'C:\\staging\\x.part', {
      o,
      stats,
      timed: (_what, work) => work,
    });
  await upload();
  t.is(digest(joined(server.written)), digest(data));
  t.is(stats.bytesSent, data.length);
  // Four blocks read; a block given back early is read into again within the upload.
  const blocks = uploadBlocks.freeBlocks;
  t.true(blocks >= 2 && blocks <= 4, `${blocks} blocks given back`);
  // The next upload reads into those: it takes no new memory, and gives every block back again.
  await upload();
  t.is(uploadBlocks.freeBlocks, blocks);
  t.is(digest(joined(server.written)), digest(data));
  uploadBlocks.trim();
});
