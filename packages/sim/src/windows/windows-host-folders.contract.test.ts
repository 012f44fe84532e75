// Existing operator folders the host module refuses (issue 27, item 6): a reparse point, a folder others can
// write, or one another principal owns is never used; the error names the folder, why, and the fix; once an
// administrator fixes it, the host converges.
import test from 'ava';
import { HostFolderRefusedError, converge } from '@wmco/core';
import { HostPaths, loadHostModule } from '@wmco/core/internal';
import { OPERATOR_SECURITY, Rights, Sid } from './folder-security.js';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';

test('a working area Users can write is refused at first contact; nothing is written; fixed, it converges', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const files = w.sim.model.files;
  // Made by an administrator with New-Item: it inherits C:\ProgramData's "Users may create files and folders".
  files.mkdirp(HostPaths.root);
  const payload = new Payload();
  const err = await t.throwsAsync(converge(w.host, nodeSpec(payload), payload.content), {
    instanceOf: HostFolderRefusedError,
  });
  t.regex(
    err.message,
    /^host 127\.[0-9.]+ refused: folder C:\\ProgramData\\wmco lets non-administrators write: BUILTIN\\Users \(S-1-5-32-545\) CreateFiles, CreateDirectories, WriteExtendedAttributes, WriteAttributes, so the operator will not use it\. Fix: .*icacls "C:\\ProgramData\\wmco" \/remove:g \*S-1-5-32-545 \/T \/C$/,
  );
  t.deepEqual(files.descendants(HostPaths.root), [], 'no module, no staging folder');
  t.false(files.isRestricted(HostPaths.root), "its ACL is the administrator's to fix");
  // The administrator resets owner and ACL (icacls /setowner, /inheritance:r /grant:r, /remove:g).
  files.setSecurity(HostPaths.root, OPERATOR_SECURITY);
  await converge(w.connect(), nodeSpec(payload), payload.content);
  t.true(files.isFile((await loadHostModule()).remotePath), 'the module is written once the folder is fixed');
});

test('C:\\k as a junction is refused before any step: nothing through it, no service; removed, the host converges', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const files = w.sim.model.files;
  files.mkdirp('C:\\Users\\eve\\k');
  files.link('C:\\k', 'C:\\Users\\eve\\k', 'junction');
  const payload = new Payload();
  const err = await t.throwsAsync(converge(w.host, nodeSpec(payload), payload.content));
  t.regex(
    err.message,
    /protecting the operator's folders: folder C:\\k is a Junction to C:\\Users\\eve\\k \(a reparse point\), so the operator will not use it\. Fix: remove the link, not its target \(cmd \/c rmdir "C:\\k"\)/,
  );
  t.deepEqual(files.descendants('C:\\Users\\eve\\k'), [], 'nothing written through the junction');
  t.deepEqual(w.sim.model.scm.all(), [], 'no service created');
  files.remove('C:\\k');
  await converge(w.connect(), nodeSpec(payload), payload.content);
  t.is(files.linkAt('C:\\k'), undefined);
  t.true(files.hasOperatorSecurity('C:\\k'));
  t.true(w.sim.model.scm.all().length > 0);
});

for (const [what, security, reason] of [
  [
    'made by an administrator under C:\\ (Users may create folders in it)',
    undefined,
    /folder C:\\Temp lets non-administrators write: BUILTIN\\Users \(S-1-5-32-545\) CreateFiles, CreateDirectories, so/,
  ],
  [
    'owned by a local user',
    { ...OPERATOR_SECURITY, owner: 'S-1-5-21-1-2-3-1001' },
    /folder C:\\Temp is owned by S-1-5-21-1-2-3-1001, not Administrators or SYSTEM, so .* Fix: .*\/setowner \*S-1-5-32-544/,
  ],
  [
    'with Authenticated Users Modify',
    {
      ...OPERATOR_SECURITY,
      aces: [
        ...OPERATOR_SECURITY.aces,
        { sid: Sid.authenticatedUsers, rights: Rights.modify, allow: true, inherit: true },
      ],
    },
    /folder C:\\Temp lets non-administrators write: NT AUTHORITY\\Authenticated Users \(S-1-5-11\) CreateFiles, /,
  ],
] as const) {
  test(`an existing C:\\Temp ${what} is refused`, async (t) => {
    const w = await startHostWorld();
    t.teardown(() => w.stop());
    w.sim.model.files.mkdirp('C:\\Temp');
    if (security) w.sim.model.files.setSecurity('C:\\Temp', security);
    const payload = new Payload();
    const err = await t.throwsAsync(converge(w.host, nodeSpec(payload), payload.content));
    t.regex(err.message, reason);
    t.false(w.sim.model.files.hasOperatorSecurity('C:\\Temp'), 'not taken over');
  });
}
