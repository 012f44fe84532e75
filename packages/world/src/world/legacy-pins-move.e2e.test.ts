// Host-key pins move from windows-ssh-host-keys into the node records once, on start (ADR 0038).
import test from 'ava';
import {
  HOST_KEYS_CONFIGMAP,
  NODE_RECORD_FIELD,
  PENDING_HOST_KEYS_CONFIGMAP,
  decodeNodeRecord,
  nodeRecordName,
  type NodeRecord,
} from '@wmco/core/internal';
import type { SimWorld } from './sim-world.js';
import { apis, NS, phaseIs, testWorld, until } from './world-fixture.js';
import { wmcoPlan } from './wmco-plan.test-helper.js';

async function readRecord(world: SimWorld, key: string): Promise<NodeRecord> {
  const name = nodeRecordName('windows-instances', key);
  const record = decodeNodeRecord(await apis(world).core.readNamespacedConfigMap({ name, namespace: NS }));
  if (record === undefined) throw new Error(`no record of ${key}`);
  return record;
}

/** The record as a version before this change wrote it: the pin only in windows-ssh-host-keys. */
async function withoutPin(world: SimWorld, key: string): Promise<void> {
  const name = nodeRecordName('windows-instances', key);
  const core = apis(world).core;
  const cm = await core.readNamespacedConfigMap({ name, namespace: NS });
  const { hostKey: _pin, ...rest } = await readRecord(world, key);
  cm.data = { [NODE_RECORD_FIELD]: JSON.stringify(rest) };
  await core.replaceNamespacedConfigMap({ name, namespace: NS, body: cm });
}

const exists = (world: SimWorld, name: string): Promise<boolean> =>
  apis(world)
    .core.readNamespacedConfigMap({ name, namespace: NS })
    .then(
      () => true,
      () => false,
    );

test.serial(
  'the old pins move into the node records once, on start, and the old ConfigMap goes',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: 0,
    });
    t.teardown(() => world.stop());
    const [a, b] = world.hosts.hosts;
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
    const first = await world.startOperator();
    await until('both Ready', async () =>
      (await phaseIs(world, a!.address, 'Ready')()) && (await phaseIs(world, b!.address, 'Ready')())
        ? true
        : undefined,
    );
    await first.stop();
    t.false(await exists(world, HOST_KEYS_CONFIGMAP), 'the old ConfigMap is not written');
    const keyA = (await readRecord(world, world.hosts.key(0))).hostKey;
    const keyB = (await readRecord(world, world.hosts.key(1))).hostKey;
    t.is(keyA?.base64, a!.sim.hostKeyBase64, 'the join pinned into the record');

    // As an operator before this change left the cluster: A's pin only in the old ConfigMap; B's old pin
    // disagreeing with its record; a pin of a host with no record.
    await withoutPin(world, world.hosts.key(0));
    const at = (h: typeof a): string => (h!.sim.port === 22 ? h!.address : `${h!.address}:${h!.sim.port}`);
    await apis(world).core.createNamespacedConfigMap({
      namespace: NS,
      body: {
        metadata: { name: HOST_KEYS_CONFIGMAP, namespace: NS },
        data: {
          [at(a)]: `${keyA?.type ?? ''} ${keyA?.base64 ?? ''}`,
          [at(b)]: `${keyB?.type ?? ''} ${keyA?.base64 ?? ''}`,
          '10.99.0.1': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPending',
        },
      },
    });

    await world.startOperator('wmco-1');
    await until('the old ConfigMap moved and deleted', async () =>
      (await exists(world, HOST_KEYS_CONFIGMAP)) ? undefined : true,
    );
    t.deepEqual((await readRecord(world, world.hosts.key(0))).hostKey, keyA, "A's pin is in its record");
    t.deepEqual((await readRecord(world, world.hosts.key(1))).hostKey, keyB, "B's record keeps its own pin");
    const pending = await apis(world).core.readNamespacedConfigMap({
      name: PENDING_HOST_KEYS_CONFIGMAP,
      namespace: NS,
    });
    t.deepEqual(Object.keys(pending.data ?? {}), ['10.99.0.1'], 'a host with no record is pending');

    // Both hosts are reached under their records' pins: no host key mismatch.
    const plan = await wmcoPlan(world);
    t.is(plan.code, 0, plan.stdout + plan.stderr);
    t.regex(plan.stdout, /2 unchanged, 0 not planned/);
  },
);
