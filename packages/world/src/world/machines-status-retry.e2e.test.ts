// A Machine whose join fails says so in its status as a BYOH instance does: the last error, the count of
// failed attempts and when it is tried again, kept until it succeeds (issue 30 item 1).
import test from 'ava';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { statusText } from './mixed-world.js';
import type { SimWorld } from './sim-world.js';
import { phaseIs, testWorld, until } from './world-fixture.js';

const IGNORE = 'windowsmachineconfig.openshift.io/ignore';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Read loosely: the test compiles, and fails, without the fields. */
const nextRetryOf = (s: object | undefined): string | undefined =>
  (s as { nextRetry?: string } | undefined)?.nextRetry;
const attemptsOf = (s: object | undefined): number | undefined =>
  (s as { failedAttempts?: number } | undefined)?.failedAttempts;

async function unignore(world: SimWorld, name: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  await kc.makeApiClient(CustomObjectsApi).patchNamespacedCustomObject(
    {
      group: 'machine.openshift.io',
      version: 'v1beta1',
      namespace: 'openshift-machine-api',
      plural: 'machines',
      name,
      body: { metadata: { labels: { [IGNORE]: null } } },
    },
    mergePatch,
  );
}

test.serial(
  'a Machine whose join fails shows its last error, failed attempts and next retry until it is Ready',
  async (t) => {
    t.timeout(200_000);
    // Retried (never deleted) while the host refuses the key; each retry a second after the failure.
    const { world, logs } = await testWorld([], {
      platform: 'VSphere',
      machineRetry: { budget: 1000, retryMs: 1000 },
    });
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, async () => {
      await world.createPrivateKeySecret();
      await world.startOperator();
      const api = world.machineApi();
      // Ignored until its VM is up, so that the fault is in place before the operator first connects.
      await api.createMachineSet({
        name: 'win',
        replicas: 1,
        platform: 'VSphere',
        labels: { [IGNORE]: 'true' },
      });
      const m = await until(
        'a provisioned Machine whose VM is up',
        async () => {
          const [x] = await api.machines('win');
          const ip = x?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
          const host = ip === undefined ? undefined : world.machineHost(ip);
          return x && host ? { name: x.metadata.name, host } : undefined;
        },
        120_000,
      );
      m.host.faults.refuseAuthentication = true;
      await unignore(world, m.name);
      const key = `machine.${m.name}`;
      const failed = await until(
        'Failed with its next retry',
        async () => {
          const s = await world.status(key);
          return s?.phase === 'Failed' && nextRetryOf(s) !== undefined ? s : undefined;
        },
        120_000,
      );
      t.regex(failed.lastError ?? '', /authentication/i);
      t.true((attemptsOf(failed) ?? 0) >= 1, 'the failed attempts are counted');
      t.true(
        Date.parse(nextRetryOf(failed)!) >= Date.parse(failed.since),
        'the retry comes after the failure',
      );
      // While it retries, the last error and the count stay (the attempt under way cleared only nextRetry).
      const retrying = await until(
        'a retry under way that keeps the last error',
        async () => {
          const s = await world.status(key);
          return s && s.phase !== 'Failed' && s.lastError !== undefined ? s : undefined;
        },
        120_000,
      );
      t.true((attemptsOf(retrying) ?? 0) >= 1);
      // wmco status shows both while the Machine is between two attempts.
      let line = '';
      t.teardown(() => t.log(`last wmco status line: ${line}`));
      await until(
        'wmco status showing the count and the next retry',
        async () => {
          line =
            (await statusText(world))
              .split('\n')
              .find((l) => l.startsWith('Machine') && l.includes(m.name)) ?? '';
          return /failed attempts: \d+, next retry in/.test(line) ? true : undefined;
        },
        120_000,
      );
      delete m.host.faults.refuseAuthentication;
      const ready = await until('Ready', phaseIs(world, key, 'Ready'), 120_000);
      t.is(nextRetryOf(ready), undefined, 'success clears the next retry');
      t.is(attemptsOf(ready), undefined, 'and the count');
      t.is(ready.lastError, undefined, 'and the last error');
    });
  },
);
