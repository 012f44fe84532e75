// Values as data and bounded output: the WindowsHost contract against a simulated host over real SSH.
import test from 'ava';
import {
  HOST_PROTOCOL_VERSION,
  HYBRID_OVERLAY_NETWORK,
  loadHostModule,
  networkConfigScript,
} from '@wmco/core/internal';
import { HostOutputLimitError, InvalidHostRequestError } from '@wmco/core';
import { startHostWorld, type HostWorld } from './windows-host-fixture.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
const KUBE_PROXY = 'C:\\k\\kube-proxy.conf';
const NETWORK_CONF =
  'C:\\Temp\\network-conf.ps1 -hostnameOverride $WmcoArg_NODE_NAME -clusterCIDR $WmcoArg_NODE_SUBNET ' +
  `-kubeConfigPath $WmcoArg_KUBE_CONFIG_PATH -kubeProxyConfigPath ${KUBE_PROXY} -verbosity $WmcoArg_VERBOSITY`;

function prepare(w: HostWorld): void {
  const write = (path: string, content: string): void => {
    w.sim.model.files.mkdirp(path.replace(/\\[^\\]*$/, ''));
    w.sim.model.files.write(path, Buffer.from(content));
  };
  write('C:\\Temp\\network-conf.ps1', networkConfigScript({ serviceCidr: '172.30.0.0/16' }));
  write('C:\\Temp\\hns.psm1', '# HNS helpers');
  w.sim.model.files.mkdirp('C:\\k\\cni\\config');
  w.sim.model.hnsNetworks.push({ name: HYBRID_OVERLAY_NETWORK, type: 'Overlay', id: 'net-1' });
}

test('script arguments are bound as data: a hostile value is one literal argument', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  prepare(w);
  const hostile = "10.0.0.0/24'; Remove-Item -Recurse C:\\k; '$(Stop-Computer)";
  const args = {
    NODE_NAME: 'win-a',
    NODE_SUBNET: hostile,
    KUBE_CONFIG_PATH: 'C:\\k\\kubeconfig',
    VERBOSITY: '2',
  };
  const state = await w.host.observe({
    ...emptyQuery,
    evaluate: [{ name: 'kp', script: NETWORK_CONF, args }],
  });
  t.deepEqual(state.evaluated['kp'], { ok: true, output: '' });
  const conf = JSON.parse(w.sim.model.files.read(KUBE_PROXY)!.toString('latin1')) as {
    clusterCIDR: string;
    hostnameOverride: string;
  };
  t.is(conf.clusterCIDR, hostile, 'the value arrived whole, as data');
  t.is(conf.hostnameOverride, 'win-a');
  t.deepEqual(w.sim.unsupportedCommands, [], 'nothing in the value was run');
  const observed = w.sim.invocations.filter((i) => i.op === 'observe').at(-1);
  t.deepEqual(
    observed?.scripts,
    [{ name: 'kp', script: NETWORK_CONF, args }],
    'the host recorded what it ran',
  );
});

test('script arguments: names and values are checked before anything is sent', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const sent = w.sim.stats.execs;
  for (const args of [{ 'A;B': 'x' }, { A: 'line\nbreak' }, { A: 'x'.repeat(2000) }]) {
    await t.throwsAsync(
      w.host.observe({ ...emptyQuery, evaluate: [{ name: 'x', script: 'C:\\x.ps1', args }] }),
      { instanceOf: InvalidHostRequestError },
    );
  }
  t.is(w.sim.stats.execs, sent);
});

test('a host streaming endless output fails the call clearly and the operator keeps a bounded amount', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  const capped = w.connect({ maxOutputBytes: 256 * 1024 });
  await capped.observe(emptyQuery);
  w.sim.faults.endlessOutput = true;
  const heapBefore = process.memoryUsage().heapUsed;
  const err = await t.throwsAsync(capped.observe(emptyQuery), { instanceOf: HostOutputLimitError });
  t.regex(err.message, /printed more than 262144 bytes for one command/);
  t.true(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024, 'memory stays bounded');
  // The connection is still usable for the next call, and the host stopped streaming.
  const state = await capped.observe(emptyQuery);
  t.is(state.v, HOST_PROTOCOL_VERSION);
  const deadline = Date.now() + 5000;
  while (w.sim.stats.floodsOpen > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.is(w.sim.stats.floodsOpen, 0, 'the host saw the flooding channel closed');
});

test('a tampered module of the same size is never run: the adapter uploads it again and goes on', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  const module = await loadHostModule();
  const tampered = Buffer.from(module.bytes);
  tampered.write('#', tampered.length - 2);
  w.sim.model.files.write(module.remotePath, tampered);
  const ran = (): number => w.sim.invocations.filter((i) => i.op !== 'prepare').length;
  const before = ran();
  const fresh = w.connect();
  const state = await fresh.observe(emptyQuery);
  t.is(state.v, HOST_PROTOCOL_VERSION);
  t.true(w.sim.model.files.read(module.remotePath)?.equals(module.bytes), 'the shipped bytes are back');
  t.is(ran() - before, 1, 'only the verified module ran');
});

test('output is bounded per session too: small answers that add up past the session bound end the session', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({ maxSessionOutputBytes: 16 * 1024 });
  let err: unknown;
  for (let call = 0; call < 200 && err === undefined; call++) {
    err = await host.observe(emptyQuery).then(
      () => undefined,
      (e: unknown) => e,
    );
  }
  t.true(err instanceof HostOutputLimitError, String(err));
  t.regex(String(err), /printed more than 16384 bytes for one session/);
  t.is((await host.observe(emptyQuery)).v, HOST_PROTOCOL_VERSION, 'a new session answers');
});
