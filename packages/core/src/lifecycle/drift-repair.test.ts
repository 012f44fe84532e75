import test from 'ava';
import {
  FACTS,
  StateHost,
  fakeConfigMaps,
  recordingSignals,
  stateMatching,
  testDeps,
  testNode,
  emptyHostSpec,
} from './lifecycle.test-helper.js';
import { DriftRepair, type DriftCheck } from './drift-repair.js';
import { designNode, nodeHostSpec } from '../desired/node-spec.js';

const OUTPUTS = { 'kubelet.0': '10.0.0.5\r\n' };

function setup(edit?: (host: StateHost) => void): {
  host: StateHost;
  deps: ReturnType<typeof testDeps>;
  check: (wanted?: boolean) => DriftCheck;
} {
  const spec = nodeHostSpec(
    designNode(testDeps(new StateHost(stateMatching(emptyHostSpec()))), FACTS),
    { NODE_IP: '10.0.0.5' },
    testNode(),
  );
  const host = new StateHost(stateMatching(spec), OUTPUTS);
  edit?.(host);
  const deps = testDeps(host);
  const check = (wanted = true): DriftCheck => ({
    node: testNode(),
    target: { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' },
    signal: new AbortController().signal,
    stillWanted: () => wanted,
  });
  return { host, deps, check };
}

function handEdit(host: StateHost, name: string, suffix: string): void {
  host.state = {
    ...host.state,
    services: host.state.services.map((s) =>
      s.name === name ? { ...s, commandLine: s.commandLine + suffix } : s,
    ),
  };
}

test('a host that matches its spec is clean after one observe with only the value scripts', async (t) => {
  const { host, deps, check } = setup();
  const outcome = await new DriftRepair(deps).check(check());
  t.deepEqual(outcome, { result: 'clean' });
  t.is(host.queries.length, 1);
  t.deepEqual(
    host.queries[0]?.evaluate?.map((e) => e.name),
    ['kubelet.0'],
  );
  t.is(host.applied.length, 0);
  t.is(host.closed, 1);
  t.deepEqual(deps.events.events, []);
});

test('a stopped service is started after its pre-script: one observe and one apply', async (t) => {
  const { host, deps, check } = setup((h) => {
    h.state = {
      ...h.state,
      services: h.state.services.map((s) => (s.name === 'kube-proxy' ? { ...s, state: 'stopped' } : s)),
    };
  });
  const outcome = await new DriftRepair(deps).check(check());
  t.is(outcome.result, 'repaired');
  t.is(host.queries.length, 1, 'the look is the only observe');
  t.deepEqual(
    host.queries[0]?.evaluate?.map((e) => e.name),
    ['kubelet.0'],
    'value scripts only',
  );
  const steps = host.applied[0]?.steps ?? [];
  t.deepEqual(
    steps.map((s) => `${s.kind} ${'name' in s ? s.name : ''}`),
    ['runScript kube-proxy.0', 'startService kube-proxy'],
  );
  const script = steps[0];
  t.true(script?.kind === 'runScript' && script.script.startsWith('C:\\Temp\\network-conf.ps1'));
  t.like(script?.kind === 'runScript' ? script.args : {}, { NODE_SUBNET: '10.132.1.0/24' });
});

test('a service changed by hand is reconfigured, its dependents restarted after their pre-scripts, and recorded', async (t) => {
  const { host, deps, check } = setup((h) => handEdit(h, 'hybrid-overlay-node', ' --loglevel 5'));
  const desired = host.state.services
    .find((s) => s.name === 'hybrid-overlay-node')!
    .commandLine.replace(' --loglevel 5', '');
  const published = fakeConfigMaps();
  const outcome = await new DriftRepair({ ...deps, core: published.api }).check(check());
  t.is(outcome.result, 'repaired');
  t.is(host.queries.length, 2, 'a look, then a look again once the disruption budget granted the restart');
  t.deepEqual(
    host.queries[1]?.evaluate?.map((e) => e.name),
    ['kubelet.0'],
    'value scripts only',
  );
  t.is(host.applied.length, 1);
  t.deepEqual(
    host.applied[0]?.steps.map((s) => `${s.kind} ${'name' in s ? s.name : ''}`),
    [
      'stopService kube-proxy',
      'stopService hybrid-overlay-node',
      'configureService hybrid-overlay-node',
      'startService hybrid-overlay-node',
      'runScript kube-proxy.0',
      'startService kube-proxy',
    ],
  );
  t.is(host.state.services.find((s) => s.name === 'hybrid-overlay-node')?.commandLine, desired);
  const [event] = deps.events.events;
  t.is(event?.reason, 'DriftRepaired');
  t.like(event?.object, { kind: 'Node', name: 'win-a' }, 'drift is reported on the Node it was found on');
  t.regex(
    event?.message ?? '',
    /^Repaired node win-a \(10\.0\.0\.5\): stop service kube-proxy; .*reconfigure service hybrid-overlay-node/,
  );
  t.is(published.created[0]?.metadata?.name, 'windows-services-0.1.0', 'the services record is kept current');
  t.deepEqual(await new DriftRepair(deps).check(check()), { result: 'clean' }, 'clean once repaired');
});

test('drift that needs a reboot is not applied to a Ready node: one warning, and a reboot request on the node', async (t) => {
  const { host, check } = setup();
  const patches: { name: string; body: unknown }[] = [];
  const core = Object.assign(fakeConfigMaps().api, {
    patchNode: (r: { name: string; body: unknown }) => {
      patches.push(r);
      return Promise.resolve({});
    },
  });
  const deps = testDeps(host, { core, proxyEnv: { HTTP_PROXY: 'http://user:secret@proxy:3128' } });
  const repair = new DriftRepair(deps);
  const first = await repair.check(check());
  t.is(first.result, 'skipped');
  t.is(host.applied.length, 0);
  t.deepEqual(patches, [
    {
      name: 'win-a',
      body: { metadata: { annotations: { 'windowsmachineconfig.openshift.io/reboot-required': '' } } },
    },
  ]);
  // The request is on the node already: a later check warns no more and asks no more.
  const requested = testNode();
  requested.metadata = {
    ...requested.metadata,
    annotations: {
      ...requested.metadata?.annotations,
      'windowsmachineconfig.openshift.io/reboot-required': '',
    },
  };
  await repair.check({ ...check(), node: requested });
  t.is(patches.length, 1);
  t.is(host.queries.length, 2, 'one observe per check: no effect scripts run for drift it will not repair');
  t.deepEqual(
    deps.events.events.map((e) => e.reason),
    ['DriftNeedsReboot'],
  );
  t.regex(deps.events.events[0]?.message ?? '', /a graceful reboot is requested/);
  t.false(deps.events.events[0]?.message.includes('secret'), 'proxy credentials are not shown');
});

test('drift that needs a reboot on a host no longer wanted: no reboot request', async (t) => {
  const { host, check } = setup();
  const patches: unknown[] = [];
  const core = Object.assign(fakeConfigMaps().api, {
    patchNode: (r: unknown) => Promise.resolve(patches.push(r)),
  });
  const deps = testDeps(host, { core, proxyEnv: { HTTP_PROXY: 'http://proxy:3128' } });
  t.is((await new DriftRepair(deps).check(check(false))).result, 'skipped');
  t.deepEqual(patches, []);
});

test('nothing is applied when the host is no longer wanted by the time drift is found', async (t) => {
  const { host, deps, check } = setup((h) => handEdit(h, 'csi-proxy', ' --v=9'));
  const outcome = await new DriftRepair(deps).check(check(false));
  t.is(outcome.result, 'skipped');
  t.is(host.applied.length, 0);
  t.is(host.queries.length, 1, 'not even the effect scripts ran');
});

test('a node that is not owned by the instance is never looked at nor repaired', async (t) => {
  const { host, deps, check } = setup((h) => handEdit(h, 'hybrid-overlay-node', ' --loglevel 5'));
  const foreign = { ...check(), node: testNode('worker-0', '10.0.0.9') };
  const outcome = await new DriftRepair(deps).check(foreign);
  t.like(outcome, { result: 'skipped', why: 'the node is not owned by this instance' });
  t.is(host.queries.length, 0, 'no SSH call at all');
  t.is(host.applied.length, 0);
});

test('a hostile value patched onto a Ready node is refused with one event and nothing runs', async (t) => {
  const { host, deps } = setup();
  const node = testNode();
  node.metadata!.annotations!['k8s.ovn.org/hybrid-overlay-node-subnet'] = '$(Invoke-WebRequest evil)';
  const c: DriftCheck = {
    node,
    target: { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' },
    signal: new AbortController().signal,
    stillWanted: () => true,
  };
  const repair = new DriftRepair(deps);
  t.deepEqual(await repair.check(c), { result: 'skipped', steps: [], why: 'a node value was refused' });
  await repair.check(c);
  t.is(host.queries.length, 0, 'no observe: nothing ran on the host');
  t.is(host.applied.length, 0);
  t.deepEqual(
    deps.events.events.map((e) => e.reason),
    ['NodeValueRefused'],
  );
  t.regex(
    deps.events.events[0]!.message,
    /refusing NODE_SUBNET = "\$\(Invoke-WebRequest evil\)": not an IPv4 CIDR/,
  );
});

test("the check's connection is abandoned with the check: openHost gets its signal", async (t) => {
  const { host, deps, check } = setup();
  const c = check();
  const { deps: opening, signals } = recordingSignals(deps, host);
  await new DriftRepair(opening).check(c);
  t.is(signals.length, 1);
  t.is(signals[0], c.signal);
});
