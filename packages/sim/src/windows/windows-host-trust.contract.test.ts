// Host-side trust: the operator's folders are protected before anything is written, staged files are
// verified after the copy, and deconfigure never follows a junction or symbolic link.
import test from 'ava';
import { HostPaths, stagedPathFor } from '@wmco/core/internal';
import { converge } from '@wmco/core';
import { OPERATOR_SECURITY, Sid } from './folder-security.js';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';

test('the operator folders are restricted to SYSTEM and Administrators before anything is written', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  // C:\Temp exists on some images; one only administrators can write is taken over (an open one is
  // refused: windows-host-folders.contract.test.ts).
  w.sim.model.files.mkdirp('C:\\Temp');
  w.sim.model.files.setSecurity('C:\\Temp', { ...OPERATOR_SECURITY, owner: Sid.system });
  t.false(w.sim.model.files.hasOperatorSecurity('C:\\Temp'));
  const payload = new Payload();
  const result = await converge(w.host, nodeSpec(payload), payload.content);
  for (const root of HostPaths.protectedRoots) t.true(w.sim.model.files.isRestricted(root), root);
  t.true(w.sim.model.files.isRestricted(HostPaths.staging), 'staging inherits');
  t.true(w.sim.model.files.isRestricted('C:\\k\\containerd'), 'sub-folders inherit');
  t.deepEqual(w.sim.model.files.unrestrictedWrites, [], 'no file was written into an open folder');
  t.deepEqual(
    result.outcome.done.filter((d) => d.kind === 'protectDirectory').map((d) => d.target),
    ['C:\\k', 'C:\\Temp'],
    'the working area was protected by the first command, before the module was written',
  );
  t.is(w.host.stats.moduleInstalls, 1, 'the first command carried the module');
  t.is(
    w.host.stats.powershellStarts,
    1,
    'one PowerShell start for the whole converge, first contact included',
  );
});

test('a staged file swapped after the observe is refused: the copy is what is verified', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  await converge(w.host, { ...spec, files: [], services: [] }, payload.content);
  const file = spec.files[0]!;
  await w.host.upload([{ sha256: file.sha256, source: payload.content(file.sha256) }]);
  const staged = stagedPathFor(file.sha256);
  const original = w.sim.model.files.read(staged)!;
  w.sim.model.files.write(staged, Buffer.alloc(original.length, 0x41)); // same size, other bytes
  const err = await t.throwsAsync(
    w.host.apply({ steps: [{ kind: 'placeFile', path: file.path, sha256: file.sha256 }] }),
  );
  t.regex(err.message, /staged file for '.*' has SHA-256 '[0-9a-f]{64}', expected/);
  t.false(w.sim.model.files.isFile(file.path), 'nothing reached the destination');
  t.false(w.sim.model.files.isFile(`${file.path}.wmco-new`), 'the bad copy is gone');
  t.false(w.sim.model.files.isFile(staged), 'the bad staged file is gone, so the next round uploads again');
});

test('deconfigure removes junctions and symbolic links, never what they point to', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  await converge(w.host, nodeSpec(payload), payload.content);
  const files = w.sim.model.files;
  files.mkdirp('C:\\Important\\data');
  files.write('C:\\Important\\data\\keep.txt', Buffer.from('precious'));
  files.write('C:\\Windows\\System32\\kernel32.dll', Buffer.from('system'));
  files.link('C:\\k\\logs', 'C:\\Important', 'junction');
  files.link('C:\\k\\kernel32.dll', 'C:\\Windows\\System32\\kernel32.dll', 'symlink');
  t.true(files.isFile('C:\\k\\logs\\data\\keep.txt'), 'the junction is live');
  await w.host.deconfigure({
    services: [],
    removeTaggedServices: true,
    envVars: [],
    hnsNetworks: [],
    directories: ['C:\\k'],
    keep: [],
  });
  t.false(files.isDirectory('C:\\k'));
  t.is(files.linkAt('C:\\k\\logs'), undefined, 'the link is gone');
  t.is(files.read('C:\\Important\\data\\keep.txt')?.toString(), 'precious');
  t.is(files.read('C:\\Windows\\System32\\kernel32.dll')?.toString(), 'system');
});
