import type { V1Node } from '@kubernetes/client-node';
import test from 'ava';
import { silentLogger } from '../kube/logger.js';
import { LIFECYCLE_PHASE_ANNOTATION } from './lifecycle-annotations.js';
import {
  ActiveWork,
  NOT_UPGRADEABLE,
  UPGRADEABLE,
  UpgradeableReporter,
  busyNodes,
  type UpgradeableCondition,
} from './upgradeable.js';

const OWNER = 'windowsmachineconfig.openshift.io/instance-address';
const VERSION = 'windowsmachineconfig.openshift.io/version';
const node = (name: string, annotations: Record<string, string>): V1Node => ({
  metadata: { name, annotations },
});

test('busy: nodes taken out of service, and owned nodes not on this version (joining or awaiting upgrade)', (t) => {
  const nodes = [
    node('done', { [OWNER]: '10.0.0.1', [VERSION]: '2' }),
    node('old', { [OWNER]: '10.0.0.2', [VERSION]: '1' }),
    node('joining', { [OWNER]: '10.0.0.3' }),
    node('draining', { [OWNER]: '10.0.0.4', [VERSION]: '2', [LIFECYCLE_PHASE_ANNOTATION]: 'Draining' }),
    node('not-ours', {}),
  ];
  t.deepEqual(busyNodes(nodes, '2'), ['old', 'joining', 'draining']);
});

test('the reporter writes upstream reasons, and only when busy/free changes', async (t) => {
  const written: UpgradeableCondition[] = [];
  let busy: string[] = ['win-a'];
  const r = new UpgradeableReporter(
    { setUpgradeable: (c) => Promise.resolve(void written.push(c)) },
    () => busy,
    silentLogger,
  );
  await r.sync();
  await r.sync();
  busy = [];
  await r.sync();
  await r.sync();
  t.deepEqual(written, [NOT_UPGRADEABLE, UPGRADEABLE]);
  t.is(NOT_UPGRADEABLE.reason, 'upgradeIsNotSafe');
  t.is(UPGRADEABLE.message, 'The operator is safe for upgrade');
});

test('a failed write is tried again at the next look', async (t) => {
  let fail = true;
  const written: string[] = [];
  const r = new UpgradeableReporter(
    {
      setUpgradeable: (c) =>
        fail ? Promise.reject(new Error('not found')) : Promise.resolve(void written.push(c.status)),
    },
    () => [],
    silentLogger,
  );
  await t.throwsAsync(r.sync());
  fail = false;
  await r.sync();
  t.deepEqual(written, ['True']);
});

test('active work counts each key while it runs', async (t) => {
  const work = new ActiveWork();
  let inside: string[] = [];
  await work.during('10.0.0.5', () => Promise.resolve(void (inside = work.active())));
  t.deepEqual(inside, ['10.0.0.5']);
  t.deepEqual(work.active(), []);
  await t.throwsAsync(work.during('x', () => Promise.reject(new Error('boom'))));
  t.deepEqual(work.active(), []);
});
