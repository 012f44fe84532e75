import test from 'ava';
import type { JoinDeps } from './join-deps.js';
import { DisruptionBudget } from './disruption-budget.js';
import { DriftRepair } from './drift-repair.js';
import { JoinFlow } from './join-flow.js';
import { NodeMaintenance } from './maintenance.js';
import { UpgradeFlow } from './upgrade-flow.js';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import { emptyHostSpec, StateHost, stateMatching, testDeps, testNode } from './lifecycle.test-helper.js';
import { designNode, nodeHostSpec } from '../desired/node-spec.js';
import { FACTS } from './lifecycle.test-helper.js';

/** Only the named fields of `deps`: a flow built from it reads nothing else (tsc checks the keys suffice). */
function only<K extends keyof JoinDeps>(deps: JoinDeps, keys: readonly K[]): Pick<JoinDeps, K> {
  return Object.fromEntries(keys.map((k) => [k, deps[k]])) as Pick<JoinDeps, K>;
}

const CLUSTER = ['core', 'namespace', 'version', 'events', 'logger'] as const;
const DESIGN = ['payload', 'capabilities', 'providerFiles', 'debug', 'logRotation', 'proxyEnv'] as const;
const HOST = [...DESIGN, 'openHost', 'payloadDir', 'facts'] as const;
const WAITS = ['timings', 'nodeChanges'] as const;

test('drift repair runs from its narrow dependencies alone: no registrations, records, status or timings', async (t) => {
  const spec = nodeHostSpec(
    designNode(testDeps(new StateHost(stateMatching(emptyHostSpec()))), FACTS),
    { NODE_IP: '10.0.0.5' },
    testNode(),
  );
  const host = new StateHost(stateMatching(spec), { 'kubelet.0': '10.0.0.5\r\n' });
  const repair = new DriftRepair(only(testDeps(host), [...CLUSTER, ...HOST]));
  const outcome = await repair.check({
    node: testNode(),
    target: { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' },
    signal: new AbortController().signal,
    stillWanted: () => true,
  });
  t.deepEqual(outcome, { result: 'clean' });
});

test('the join, the upgrade and the shared maintenance are built from their narrow dependencies alone', (t) => {
  const deps = testDeps(new StateHost(stateMatching(emptyHostSpec())));
  const join = only(deps, [
    ...CLUSTER,
    ...HOST,
    ...WAITS,
    'status',
    'records',
    'cloud',
    'windowsBuilds',
    'now',
  ]);
  const upgrade = only(deps, [...CLUSTER, ...HOST, ...WAITS, 'status']);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => []);
  t.truthy(new JoinFlow(join, new InMemoryHostKeyStore()));
  t.truthy(new UpgradeFlow(upgrade, budget, { drainTimeoutMs: 1000 }));
  const maintenance = new NodeMaintenance({ ...join, ...upgrade }, () => []);
  t.truthy(maintenance.joinFlow(new InMemoryHostKeyStore()));
  t.truthy(maintenance.upgrades());
  t.truthy(maintenance.driftRepair());
  // None of them needs the node-name registrations (the source's JoiningInstance holds those).
  t.false('names' in join || 'names' in upgrade);
});
