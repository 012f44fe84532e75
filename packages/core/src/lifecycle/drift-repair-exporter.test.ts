import test from 'ava';
import { StateHost, stateMatching, testDeps, testNode, FACTS } from './lifecycle.test-helper.js';
import { DriftRepair, type DriftCheck } from './drift-repair.js';
import { designNode, nodeHostSpec } from '../desired/node-spec.js';
import type { ServiceDisruption } from './service-disruption.js';

const OUTPUTS = { 'kubelet.0': '10.0.0.5\r\n' };

/** A budget that records which nodes asked for a slot. */
function recordingBudget(): ServiceDisruption & { asked: string[] } {
  const asked: string[] = [];
  return { asked, disrupt: (node, work) => (asked.push(node), work()) };
}

function driftedHost(service: string): StateHost {
  const empty = {
    directories: [],
    files: [],
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
  const spec = nodeHostSpec(
    designNode(testDeps(new StateHost(stateMatching(empty))), FACTS),
    { NODE_IP: '10.0.0.5' },
    testNode(),
  );
  const host = new StateHost(stateMatching(spec), OUTPUTS);
  host.state = {
    ...host.state,
    services: host.state.services.map((s) =>
      s.name === service ? { ...s, commandLine: `${s.commandLine} --x` } : s,
    ),
  };
  return host;
}

const check: DriftCheck = {
  node: testNode(),
  target: { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' },
  signal: new AbortController().signal,
  stillWanted: () => true,
};

test('restarting windows_exporter alone takes no disruption budget slot; restarting kube-proxy does', async (t) => {
  const exporter = recordingBudget();
  const a = driftedHost('windows_exporter');
  t.is((await new DriftRepair({ ...testDeps(a), disruption: exporter }).check(check)).result, 'repaired');
  t.true(a.applied[0]?.steps.some((s) => s.kind === 'stopService' && s.name === 'windows_exporter'));
  t.deepEqual(exporter.asked, []);

  const proxy = recordingBudget();
  const b = driftedHost('kube-proxy');
  t.is((await new DriftRepair({ ...testDeps(b), disruption: proxy }).check(check)).result, 'repaired');
  t.deepEqual(proxy.asked, ['win-a']);
});
