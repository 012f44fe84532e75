import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { inChild, MEASUREMENT_V8_FLAGS } from './join-measure.js';

test('the SSH throughput is measured in a process of its own, which reports its peak memory', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-join-measure-'));
  try {
    const localPath = join(dir, 'kubelet.exe.tar.gz');
    await writeFile(localPath, randomBytes(2 * 2 ** 20));
    const r = await inChild<{ sshBytesPerSec: number }>({
      task: 'ssh',
      file: { name: 'kubelet.exe', localPath, sha256: '0'.repeat(64), size: 2 * 2 ** 20 },
    });
    t.true(r.sshBytesPerSec > 1e6, `${r.sshBytesPerSec} B/s`);
    t.true(r.peakRssMiB > 10 && r.peakRssMiB < 4096, `${r.peakRssMiB} MiB`);
    // The same V8 options as every join's process.
    t.deepEqual(r.execArgv, [...MEASUREMENT_V8_FLAGS]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a measurement that fails in its process fails the bench with which one it was', async (t) => {
  const err = await t.throwsAsync(
    inChild({
      task: 'ssh',
      file: { name: 'gone', localPath: '/nonexistent/wmco/gone.tar.gz', sha256: '0'.repeat(64), size: 1 },
    }),
  );
  t.regex(err.message, /the ssh measurement failed \(exit 1\)/);
});
