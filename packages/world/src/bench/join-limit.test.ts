import test from 'ava';
import { DEFAULT_HOST_COSTS, FREE_HOST_COSTS } from '@wmco/sim';
import { hostCriticalPath, joinLimit, ms } from './join-limit.js';
import { serviceChain } from './join-run.js';

test("one host's critical path: its compressed payload over its link, 2 PowerShell starts, services, API", (t) => {
  const path = hostCriticalPath(
    { compressedPayloadBytes: 125_000_000, serviceStarts: 4 },
    DEFAULT_HOST_COSTS,
    0.002,
  );
  t.deepEqual(Object.fromEntries(Object.entries(path.parts).map(([k, v]) => [k, ms(v)])), {
    transfer: 1.001,
    powershell: 1.002,
    services: 0.8,
    apiRoundTrips: 0.014,
  });
  t.is(ms(path.seconds), 2.817);
  t.is(hostCriticalPath({ compressedPayloadBytes: 1e9, serviceStarts: 4 }, FREE_HOST_COSTS, 0).seconds, 0);
});

test("the limit is the larger of the critical path and all bytes through this machine's SSH", (t) => {
  t.deepEqual(joinLimit(3, 100e6, 200e6), {
    seconds: 3,
    criticalPath: 3,
    encryption: 0.5,
    bound: 'critical path',
  });
  const many = joinLimit(3, 50 * 150e6, 200e6);
  t.is(many.seconds, 37.5);
  t.is(many.bound, 'SSH throughput');
});

test('the service chain is the longest run of dependencies among running services', (t) => {
  const svc = (name: string, dependencies: string[], state: 'running' | 'stopped' = 'running') => ({
    name,
    dependencies,
    state,
  });
  t.is(
    serviceChain([
      svc('containerd', []),
      svc('kubelet', ['containerd']),
      svc('hybrid-overlay-node', ['Kubelet']),
      svc('kube-proxy', ['hybrid-overlay-node']),
      svc('windows_exporter', []),
      svc('csi-proxy', ['nope'], 'stopped'),
    ]),
    4,
  );
  t.is(serviceChain([]), 0);
  t.is(serviceChain([svc('a', ['b']), svc('b', ['a'])]), 2, 'a dependency loop ends');
});
