// An instance's conditions are right after an operator restart (issue 30 item 1): the new operator starts
// from the statuses the ConfigMap holds, so a condition that stopped holding while no operator ran is
// cleared by its first reconcile (it used to stay until the instance's next phase change).
import test from 'ava';
import type { OperatorRuntime } from '@wmco/operator';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { phaseIs, testWorld, until } from './world-fixture.js';

interface Condition {
  readonly type: string;
}

const conditionOf = (s: object | undefined, type: string): Condition | undefined =>
  (s as { conditions?: readonly Condition[] } | undefined)?.conditions?.find((c) => c.type === type);

async function leadingAndSynced(rt: OperatorRuntime): Promise<void> {
  await until('the new operator leading with its informers synced', () =>
    Promise.resolve(rt.leading && rt.synced ? true : undefined),
  );
}

test.serial(
  'after a restart an ignored change reverted while no operator ran is cleared by the first reconcile',
  async (t) => {
    t.timeout(240_000);
    const { world, logs } = await testWorld([{ hostname: 'WIN-RS' }]);
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, async () => {
      const [key, value] = world.hosts.entry(0);
      const address = world.hosts.hosts[0]!.address;
      await world.createPrivateKeySecret();
      await world.setInstances({ [key]: value });
      const first = await world.startOperator();
      await until(`${address} Ready`, phaseIs(world, address, 'Ready'), 90_000);
      await world.setInstances({ [key]: 'username=someone-else' });
      await until('the ChangeIgnored condition', async () =>
        conditionOf(await world.status(address), 'ChangeIgnored'),
      );
      // Reverted while no operator runs: the next operator's first reconcile of the entry clears it.
      await first.stop();
      await world.setInstances({ [key]: value });
      const second = await world.startOperator('wmco-b');
      await leadingAndSynced(second);
      await until(
        'the condition cleared by the restarted operator',
        async () =>
          conditionOf(await world.status(address), 'ChangeIgnored') === undefined ? true : undefined,
        60_000,
      );
      const status = await world.status(address);
      t.is(status?.phase, 'Ready');
      t.not(status?.joinSeconds, undefined, 'what the earlier run wrote is carried on');
    });
  },
);
