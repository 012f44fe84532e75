import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readTar, readTarGz, tarGzOf, tarOf } from './tar-gz.js';

async function scratch(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-tar-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('reads what GNU tar writes (ustar, pax and long names, ./ prefixes)', async (t) => {
  const dir = await scratch(t);
  const data = Buffer.from('MZ kubelet '.repeat(1000));
  await writeFile(join(dir, 'kubelet.exe'), data);
  const long = `${'n'.repeat(120)}.exe`;
  await writeFile(join(dir, long), 'long');
  for (const format of ['ustar', 'pax', 'gnu']) {
    const names = format === 'ustar' ? ['./kubelet.exe'] : ['./kubelet.exe', long];
    execFileSync('tar', ['--format', format, '-czf', join(dir, `${format}.tar.gz`), '-C', dir, ...names]);
    const files = await readTarGz(await readFile(join(dir, `${format}.tar.gz`)));
    t.deepEqual(files.get('kubelet.exe'), data, format);
    if (format !== 'ustar') t.is(files.get(long)?.toString(), 'long', format);
  }
});

test('GNU tar extracts what tarGzOf writes, byte for byte', async (t) => {
  const dir = await scratch(t);
  const data = Buffer.from('containerd '.repeat(777));
  await writeFile(join(dir, 'c.tar.gz'), await tarGzOf('containerd.exe', data));
  execFileSync('tar', ['-xzf', join(dir, 'c.tar.gz'), '-C', dir]);
  t.deepEqual(await readFile(join(dir, 'containerd.exe')), data);
  t.is(
    execFileSync('tar', ['-tzvf', join(dir, 'c.tar.gz')])
      .toString()
      .includes('containerd.exe'),
    true,
  );
});

test('damaged archives are errors, not empty results', async (t) => {
  const good = tarOf('a.exe', Buffer.from('abc'));
  const bad = Buffer.from(good);
  bad[0] = bad[0]! ^ 1;
  t.throws(() => readTar(bad), { message: /bad header checksum/ });
  t.throws(() => readTar(good.subarray(0, 514)), { message: /truncated/ });
  await t.throwsAsync(readTarGz(Buffer.from('plain text')), { message: /not a gzip file/ });
  t.deepEqual(readTar(good).get('a.exe')?.toString(), 'abc');
});
