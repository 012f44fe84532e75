// The operator's own health in one place (issue 30 item 1): the `operator` key of windows-instances-status,
// shown by `wmco status` (table, -o json): the private key missing or unusable, an instance Failed.
import test from 'ava';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { statusText } from './mixed-world.js';
import type { SimWorld } from './sim-world.js';
import { apis, phaseIs, testWorld, until } from './world-fixture.js';

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/** The operator's conditions as the ConfigMap holds them (read loosely: the test fails, not its build). */
async function conditions(world: SimWorld): Promise<readonly Condition[]> {
  const cm = await apis(world)
    .core.readNamespacedConfigMap({ name: 'windows-instances-status', namespace: OPERATOR_NAMESPACE })
    .catch(() => undefined);
  const raw = cm?.data?.['operator'];
  return raw === undefined ? [] : ((JSON.parse(raw) as { conditions?: Condition[] }).conditions ?? []);
}

/** Waits until the operator's condition `type` has `status` (and `reason`, when given). */
function conditionIs(
  world: SimWorld,
  type: string,
  status: string,
  reason?: string,
): () => Promise<Condition | undefined> {
  return async () =>
    (await conditions(world)).find(
      (c) => c.type === type && c.status === status && (reason === undefined || c.reason === reason),
    );
}

test.serial(
  'the operator says when an instance failed and when its private key is missing or unusable, and clears it',
  async (t) => {
    t.timeout(280_000);
    const { world, logs } = await testWorld([{ hostname: 'WIN-OP' }]);
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, async () => {
      const host = world.hosts.hosts[0]!;
      host.sim.faults.refuseAuthentication = true;
      await world.createPrivateKeySecret();
      await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
      await world.startOperator();
      const degraded = await until(
        'Degraded: an instance failed',
        conditionIs(world, 'Degraded', 'True', 'InstancesFailed'),
        120_000,
      );
      t.true(degraded.message.includes(host.address), 'the failed instance is named');
      t.truthy(await conditionIs(world, 'Available', 'True')(), 'the operator itself still works');
      t.regex(await statusText(world), /Degraded=True \(InstancesFailed\)/);
      delete host.sim.faults.refuseAuthentication;
      await until('Ready', phaseIs(world, host.address, 'Ready'), 120_000);
      await until('Degraded cleared', conditionIs(world, 'Degraded', 'False'), 60_000);
      // The conditions are written coalesced (at most one write a second), after the instance's status:
      // the Ready status can be read before the operator's section says nothing is in progress.
      await until('nothing in progress once Ready', conditionIs(world, 'Progressing', 'False'), 60_000);

      await apis(world).core.deleteNamespacedSecret({
        name: 'cloud-private-key',
        namespace: OPERATOR_NAMESPACE,
      });
      const missing = await until(
        'the private key missing',
        conditionIs(world, 'PrivateKeyReady', 'False', 'PrivateKeyMissing'),
        60_000,
      );
      t.regex(missing.message, /cloud-private-key/);
      t.truthy(await conditionIs(world, 'Available', 'False', 'PrivateKeyMissing')());
      const text = await statusText(world);
      t.regex(text, /OPERATOR .*Available=False/);
      t.regex(text, /PrivateKeyReady=False \(PrivateKeyMissing\): Secret cloud-private-key/);
      const json = JSON.parse(await statusText(world, ['-o', 'json'])) as {
        operator?: { conditions?: Condition[] };
      };
      t.true(
        json.operator?.conditions?.some((c) => c.type === 'PrivateKeyReady' && c.status === 'False') === true,
        'wmco status -o json has the operator section',
      );

      // A public key where the private key belongs: unusable, said so.
      await world.createPrivateKeySecret(world.publicKey);
      const invalid = await until(
        'the private key unusable',
        conditionIs(world, 'PrivateKeyReady', 'False', 'PrivateKeyInvalid'),
        60_000,
      );
      t.regex(invalid.message, /cannot be used/);

      await world.createPrivateKeySecret();
      await until('the private key usable again', conditionIs(world, 'PrivateKeyReady', 'True'), 60_000);
      t.truthy(await conditionIs(world, 'Available', 'True')());
      t.notRegex(await statusText(world), /PrivateKeyReady=False/);
    });
  },
);
