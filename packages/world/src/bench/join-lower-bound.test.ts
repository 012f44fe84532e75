import test from 'ava';
import { DEFAULT_HOST_COSTS, FREE_HOST_COSTS, type HostCosts } from '@wmco/sim';
import { hostJoinBound, type HostJoinWork, type ServiceNeed } from './join-lower-bound.js';

// Round figures for hand computation: 1,000 B/s link, no latency, 0.5 s PowerShell start, 0.2 s per service.
const COSTS: HostCosts = {
  ...FREE_HOST_COSTS,
  bandwidthBytesPerSec: 1000,
  powershellStartMs: 500,
  serviceStartMs: 200,
};
const svc = (name: string, files: string[], dependencies: string[] = []): ServiceNeed => ({
  name,
  files,
  dependencies,
});
const node = (fileBytes: Record<string, number>, services: ServiceNeed[]): HostJoinWork => ({
  fileBytes: new Map(Object.entries(fileBytes)),
  services,
  kubelet: 'kubelet',
});
const round = (n: number): number => Math.round(n * 1000) / 1000;
const rounded = (r: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)]));

const CHAIN = [
  svc('containerd', ['containerd.exe']),
  svc('kubelet', ['kubelet.exe'], ['containerd']),
  svc('hybrid-overlay-node', ['hybrid-overlay-node.exe'], ['kubelet']),
  svc('windows_exporter', ['windows_exporter.exe']),
];

test('a link-bound host: the last service file arrives after every other service file, then starts', (t) => {
  // Service files 1,000 + 2,000 + 500 + 3,000 B = 6.5 s on the link; a CNI plugin no service names, 1,000 B more.
  const work = node(
    {
      'containerd.exe': 1000,
      'kubelet.exe': 2000,
      'hybrid-overlay-node.exe': 500,
      'windows_exporter.exe': 3000,
      'win-overlay.exe': 1000,
    },
    CHAIN,
  );
  const b = hostJoinBound(work, COSTS, 0.1);
  // By hand: containerd files at 1.0 s → running 1.2; kubelet needs containerd's and its own 3,000 B → 3.0 →
  // 3.2; hybrid-overlay 3.5 → 3.7; the exporter 3.0 → 3.2. API: 3.2 + 5 × 0.1 = 3.7. Link: 7.5 s for all;
  // service files 6.5 s, then a start: 6.7.
  t.deepEqual(rounded(b.bounds), {
    'every byte over the link': 7.5,
    'last service file, then its start': 6.7,
    'service dependencies': 3.7,
    'kubelet, then API round trips': 3.7,
  });
  t.is(b.decidedBy, 'every byte over the link');
  t.is(round(b.seconds), 7.5);
});

test('a PowerShell-bound host: every service waits for the one PowerShell start, then its dependencies', (t) => {
  const slowShell = { ...COSTS, powershellStartMs: 5000, latencyMs: 100 };
  const work = node(
    { 'containerd.exe': 100, 'kubelet.exe': 100, 'hybrid-overlay-node.exe': 100 },
    CHAIN.slice(0, 3),
  );
  const b = hostJoinBound(work, slowShell, 0.1);
  // PowerShell 5.0 + one 0.1 s round trip = 5.1; containerd 5.3, kubelet 5.5, hybrid-overlay 5.7; API after
  // the kubelet: 5.5 + 0.5 = 6.0. Link: 0.1 + 0.3 = 0.4 s; service files then a start: 0.6.
  t.deepEqual(rounded(b.bounds), {
    'every byte over the link': 0.4,
    'last service file, then its start': 0.6,
    'service dependencies': 5.7,
    'kubelet, then API round trips': 6,
  });
  t.is(b.decidedBy, 'kubelet, then API round trips');
});

test("a dependency's files count toward its dependant's arrival, once, and a dependency loop ends", (t) => {
  const shared = node({ 'a.exe': 1000, 'b.exe': 1000 }, [
    svc('a', ['a.exe']),
    svc('b', ['a.exe', 'b.exe'], ['a']),
  ]);
  // b needs a.exe and b.exe (2,000 B, 2.0 s) and a running (1.0 + 0.2): 2.2.
  t.is(round(hostJoinBound(shared, COSTS, 0).bounds['service dependencies']!), 2.2);
  const loop = node({ 'a.exe': 1000 }, [svc('a', ['a.exe'], ['b']), svc('b', [], ['a'])]);
  t.true(Number.isFinite(hostJoinBound(loop, COSTS, 0).seconds));
});

test('with free costs there is no bound, and without a kubelet no API round trips', (t) => {
  const work = node({ 'kubelet.exe': 1e9 }, [svc('kubelet', ['kubelet.exe'])]);
  t.is(hostJoinBound(work, FREE_HOST_COSTS, 0).seconds, 0);
  const noKubelet = node({ 'x.exe': 1000 }, [svc('x', ['x.exe'])]);
  t.is(hostJoinBound(noKubelet, COSTS, 10).bounds['kubelet, then API round trips'], 0);
});

test('the default costs: a realistic node is bound by its PowerShell start and its chain of four services', (t) => {
  const mb = 1e6;
  const work = node(
    {
      'containerd.exe': 20 * mb,
      'kubelet.exe': 45 * mb,
      'hybrid-overlay-node.exe': 23 * mb,
      'kube-proxy.exe': 22 * mb,
    },
    [...CHAIN.slice(0, 3), svc('kube-proxy', ['kube-proxy.exe'], ['hybrid-overlay-node'])],
  );
  const b = hostJoinBound(work, DEFAULT_HOST_COSTS, 0.002);
  // PowerShell 0.5 s + 1 ms; containerd 0.701, kubelet 0.901, hybrid-overlay 1.101 (its files are in at
  // 0.705), kube-proxy 1.301. All 110 MB are in at 0.881, then a start: 1.081.
  t.is(b.decidedBy, 'service dependencies');
  t.is(round(b.seconds), 1.301);
  t.is(round(b.bounds['last service file, then its start']!), 1.081);
});
