// The WindowsHost contract for `observe`'s `evaluate` scripts, against a simulated host over real SSH.
import test from 'ava';
import {
  HYBRID_OVERLAY_NETWORK,
  NODE_IP_SCRIPT,
  cniConfiguration,
  kubeProxyConfiguration,
  networkConfigScript,
} from '@wmco/core/internal';
import { InvalidHostRequestError, converge } from '@wmco/core';
import { VSPHERE_FQDN_SCRIPT } from './evaluate/host-scripts.js';
import { Payload, asJoinedBefore, nodeSpec, startHostWorld, type HostWorld } from './windows-host-fixture.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
const AWS_HOSTNAME =
  'Invoke-RestMethod -UseBasicParsing -Uri http://169.254.169.254/latest/meta-data/local-hostname';
const CNI = 'C:\\k\\cni\\config\\cni.conf';
const KUBE_PROXY = 'C:\\k\\kube-proxy.conf';
const SERVICE_CIDR = '172.30.0.0/16';
const networkConf = (hostname: string): string =>
  `C:\\Temp\\network-conf.ps1 -hostnameOverride ${hostname} -clusterCIDR 10.132.1.0/24 ` +
  `-kubeConfigPath C:\\k\\kubeconfig -kubeProxyConfigPath ${KUBE_PROXY} -verbosity 4`;

function writeFile(w: HostWorld, path: string, content: string): void {
  w.sim.model.files.mkdirp(path.replace(/\\[^\\]*$/, ''));
  w.sim.model.files.write(path, Buffer.from(content));
}

/** What the payload puts on a node for kube-proxy's pre-script. */
function placeNetworkScript(w: HostWorld): void {
  writeFile(w, 'C:\\Temp\\network-conf.ps1', networkConfigScript({ serviceCidr: SERVICE_CIDR }));
  writeFile(w, 'C:\\Temp\\hns.psm1', '# HNS helpers');
  w.sim.model.files.mkdirp('C:\\k\\cni\\config');
  asJoinedBefore(w);
}

test('evaluate: NODE_IP and the platforms hostname commands, in the same PowerShell start', async (t) => {
  const long = `${'n'.repeat(40)}.${'z'.repeat(30)}.c.project.internal`;
  const w = await startHostWorld({ model: { dnsSuffix: 'example.com', metadataHostname: long } });
  t.teardown(() => w.stop());
  writeFile(w, 'C:\\Temp\\gcp-get-hostname.ps1', '# prints the node name');
  await w.host.observe(emptyQuery); // first contact: the session starts with the module on stdin
  const starts = w.sim.stats.powershellStarts;
  const ops = w.sim.invocations.length;
  const state = await w.host.observe({
    ...emptyQuery,
    evaluate: [
      { name: 'NODE_IP', script: NODE_IP_SCRIPT },
      { name: 'AWS', script: AWS_HOSTNAME },
      { name: 'GCP', script: 'C:\\Temp\\gcp-get-hostname.ps1' },
      { name: 'VSPHERE', script: VSPHERE_FQDN_SCRIPT },
    ],
  });
  t.deepEqual(
    w.sim.invocations.slice(ops).map((i) => i.op),
    ['observe'],
    'one request runs every script',
  );
  t.is(w.sim.stats.powershellStarts - starts, 0, 'in the PowerShell of the live connection');
  t.deepEqual(state.evaluated, {
    NODE_IP: { ok: true, output: w.sim.host },
    AWS: { ok: true, output: long },
    GCP: { ok: true, output: 'n'.repeat(40) },
    VSPHERE: { ok: true, output: 'WIN-SIM.example.com' },
  });
  t.deepEqual(w.sim.unsupportedCommands, []);
  t.deepEqual((await w.host.observe(emptyQuery)).evaluated, {}, 'no scripts, no results');
});

test('evaluate: an unknown script or a missing script file is ok:false and the observe still reports', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const state = await w.host.observe({
    ...emptyQuery,
    directories: ['C:\\Windows\\System32'],
    evaluate: [
      { name: 'UNKNOWN', script: 'Get-Frobnicator -All' },
      { name: 'GCP', script: 'C:\\Temp\\gcp-get-hostname.ps1' },
      { name: 'NODE_IP', script: NODE_IP_SCRIPT },
    ],
  });
  t.deepEqual(state.directories, ['C:\\Windows\\System32']);
  const unknown = state.evaluated.UNKNOWN;
  t.false(unknown?.ok);
  t.regex(
    unknown && !unknown.ok ? unknown.error : '',
    /^The term 'Get-Frobnicator' is not recognized as the name/,
  );
  const gcp = state.evaluated.GCP;
  t.regex(gcp && !gcp.ok ? gcp.error : '', /^The term 'C:\\Temp\\gcp-get-hostname.ps1' is not recognized/);
  t.deepEqual(state.evaluated.NODE_IP, { ok: true, output: w.sim.host }, 'later scripts still run');
  t.deepEqual(w.sim.unsupportedCommands, ['evaluate: Get-Frobnicator -All'], 'a missing file is modelled');
});

test('evaluate: network-conf.ps1 fails clearly without the HNS network, then writes both files once', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  placeNetworkScript(w);
  const query = {
    ...emptyQuery,
    files: [CNI, KUBE_PROXY],
    evaluate: [{ name: 'kube-proxy-0', script: networkConf('win-a') }],
  };
  const missing = await w.host.observe(query);
  t.deepEqual(missing.evaluated['kube-proxy-0'], {
    ok: false,
    error: `HNS network ${HYBRID_OVERLAY_NETWORK} not found`,
  });
  t.deepEqual(missing.files, []);

  w.sim.model.hnsNetworks.push({
    name: HYBRID_OVERLAY_NETWORK,
    type: 'Overlay',
    id: 'net-1',
    subnet: '10.132.1.0/24',
  });
  const written = await w.host.observe(query);
  t.deepEqual(written.evaluated['kube-proxy-0'], { ok: true, output: '' });
  t.deepEqual(
    written.files.map((f) => f.path),
    [CNI, KUBE_PROXY],
    'files the script writes are in the same observe',
  );
  const text = (path: string): string => w.sim.model.files.read(path)!.toString('latin1');
  const cni = cniConfiguration({
    networkName: HYBRID_OVERLAY_NETWORK,
    subnet: '10.132.1.0/24',
    serviceCidr: SERVICE_CIDR,
    providerAddress: w.sim.host,
  });
  t.is(text(CNI), `${cni}\r\n`);
  const kubeProxy = kubeProxyConfiguration({
    hostnameOverride: 'win-a',
    clusterCIDR: '10.132.1.0/24',
    sourceVip: '10.132.1.2',
    kubeconfig: 'C:\\k\\kubeconfig',
    verbosity: 4,
  });
  t.is(text(KUBE_PROXY), `${kubeProxy}\r\n`);
  t.deepEqual(w.sim.model.hnsEndpoints, [
    { name: 'VIPEndpoint', networkId: 'net-1', ipAddress: '10.132.1.2' },
  ]);

  const before = w.sim.model.files.read(KUBE_PROXY);
  await w.host.observe(query);
  t.is(w.sim.model.files.read(KUBE_PROXY), before, 'unchanged content is not rewritten');
  const renamed = await w.host.observe({
    ...query,
    evaluate: [{ name: 'kube-proxy-0', script: networkConf('win-b') }],
  });
  t.true(renamed.evaluated['kube-proxy-0']?.ok);
  t.regex(text(KUBE_PROXY), /"hostnameOverride": "win-b"/);
  t.is(w.sim.model.hnsEndpoints.length, 1, 'the VIP endpoint is reused');
});

test('evaluate: an injection attempt in a script argument is inert', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  placeNetworkScript(w);
  w.sim.model.hnsNetworks.push({ name: HYBRID_OVERLAY_NETWORK, type: 'Overlay', id: 'net-1' });
  const payload = new Payload();
  await converge(w.host, nodeSpec(payload), payload.content);
  const evil = `x''; Remove-Item -Recurse -Force C:\\k; $(Stop-Computer) "&calc.exe`;
  const state = await w.host.observe({
    ...emptyQuery,
    evaluate: [{ name: 'kube-proxy-0', script: networkConf(`'${evil}'`) }],
  });
  t.deepEqual(state.evaluated['kube-proxy-0'], { ok: true, output: '' });
  const conf = JSON.parse(w.sim.model.files.read(KUBE_PROXY)!.toString('latin1')) as {
    hostnameOverride: string;
  };
  t.is(conf.hostnameOverride, evil.replace("''", "'"), 'the quoted value arrives as one literal argument');
  t.true(w.sim.model.files.isFile('C:\\k\\kubelet.exe'), 'nothing was removed');
  for (const line of w.sim.commandLines) {
    t.false(line.includes('Remove-Item') || line.includes('network-conf'), 'scripts travel only on stdin');
  }
  t.deepEqual(w.sim.unsupportedCommands, []);
  // A line break would start a second statement: refused before anything is sent.
  const sent = w.sim.stats.execs;
  await t.throwsAsync(
    w.host.observe({
      ...emptyQuery,
      evaluate: [{ name: 'X', script: `${NODE_IP_SCRIPT}\nRemove-Item C:\\k` }],
    }),
    { instanceOf: InvalidHostRequestError },
  );
  t.is(w.sim.stats.execs, sent);
});

test('evaluate: converge passes its scripts to the observe it starts with (before.evaluated)', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  await w.host.observe(emptyQuery); // first contact: the session starts with the module on stdin
  const starts = w.sim.stats.powershellStarts;
  const ops = w.sim.invocations.length;
  const first = await converge(w.host, nodeSpec(payload), payload.content, {
    evaluate: [{ name: 'NODE_IP', script: NODE_IP_SCRIPT }],
  });
  t.deepEqual(first.before.evaluated, { NODE_IP: { ok: true, output: w.sim.host } });
  t.deepEqual(
    w.sim.invocations.slice(ops).map((i) => i.op),
    ['observe', 'apply'],
    'observe (with the script) + apply',
  );
  t.is(w.sim.stats.powershellStarts - starts, 0);
  const second = await converge(w.host, nodeSpec(payload), payload.content);
  t.deepEqual(second.before.evaluated, {});
});
