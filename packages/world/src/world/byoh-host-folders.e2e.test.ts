// Issue 27, item 6: a BYOH host whose operator folders a non-administrator could have planted is refused,
// with an event and a status naming the folder and the fix; nothing runs from there; once the administrator
// fixes the folder, the host joins.
import { OPERATOR_SECURITY } from '@wmco/sim';
import { engineTest } from './engine-test.test-helper.js';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

engineTest(
  'a host whose C:\\k is a junction, and one whose C:\\ProgramData\\wmco Users can write, are refused until fixed',
  async (t, engine) => {
    const { world } = await testWorld([{ hostname: 'WIN-JUNCTION' }, { hostname: 'WIN-OPEN' }], {
      hostEngine: engine,
    });
    t.teardown(() => world.stop());
    const [junction, open] = world.hosts.hosts;
    const jf = junction!.sim.model.files;
    const of = open!.sim.model.files;
    // A local user's folder behind C:\k, and a working area made by New-Item (it inherits C:\ProgramData's
    // "Users may create files and folders").
    jf.mkdirp('C:\\Users\\eve\\k');
    jf.link('C:\\k', 'C:\\Users\\eve\\k', 'junction');
    of.mkdirp('C:\\ProgramData\\wmco');
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
    await world.startOperator();

    const refusal = async (address: string, pattern: RegExp): Promise<{ type: string; message: string }> => {
      const about = async (): Promise<{ reason: string; message: string; type: string }[]> =>
        (await eventsAbout(world)).filter((e) => e.message.includes(address));
      try {
        return await until(
          `the refusal event for ${address}`,
          async () =>
            (await about()).find((e) => e.reason === 'InstanceSetupFailure' && pattern.test(e.message)),
          90_000,
        );
      } catch (err) {
        t.log((await about()).map((e) => `${e.reason}: ${e.message}`));
        throw err;
      }
    };
    // The PowerShell engine keeps a junction as a Linux symbolic link: the module names it so (FIDELITY.md).
    const linkEvent = await refusal(
      junction!.address,
      /folder C:\\k is a (Junction to C:\\Users\\eve\\k|SymbolicLink to \S+) \(a reparse point\), so the operator will not use it\. Fix: remove the link, not its target \(cmd \/c rmdir "C:\\k"\)/,
    );
    t.is(linkEvent.type, 'Warning');
    const openEvent = await refusal(
      open!.address,
      /refused: folder C:\\ProgramData\\wmco lets non-administrators write: BUILTIN\\Users \(S-1-5-32-545\) CreateFiles, .*, so the operator will not use it\. Fix: .*icacls "C:\\ProgramData\\wmco" \/remove:g \*S-1-5-32-545 \/T \/C/,
    );
    t.is(openEvent.type, 'Warning');
    for (const host of [junction!, open!]) {
      const status = await world.status(host.address);
      t.regex(status?.lastError ?? '', /folder C:\\(k|ProgramData\\wmco) .* Fix: /, `${host.address} status`);
      t.deepEqual(host.sim.model.scm.all(), [], 'no service was created, so none runs from there');
    }
    t.deepEqual(jf.descendants('C:\\Users\\eve\\k'), [], 'nothing was written through the junction');
    t.deepEqual(of.descendants('C:\\ProgramData\\wmco'), [], 'nothing was written into the open folder');

    // The administrator's fixes: the link removed; owner and ACL reset (icacls /setowner, /inheritance:r ...).
    jf.remove('C:\\k');
    of.setSecurity('C:\\ProgramData\\wmco', OPERATOR_SECURITY);
    for (const host of [junction!, open!])
      await until(`${host.address} Ready once fixed`, phaseIs(world, host.address, 'Ready'), 180_000);
    t.true(jf.hasOperatorSecurity('C:\\k'), 'the operator made C:\\k itself, for SYSTEM and Administrators');
    t.deepEqual(jf.descendants('C:\\Users\\eve\\k'), [], 'the old target was never touched');
    t.true(of.isRestricted('C:\\ProgramData\\wmco\\staging'));
  },
);
