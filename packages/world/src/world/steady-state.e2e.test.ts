import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggedRequest } from '@wmco/sim';
import { LEADER_LEASE_NAME } from '@wmco/operator';
import { mixedWorld } from './mixed-world.js';
import { NS } from './world-fixture.js';

// Issue 24's done-when: against a real API server the operator deleted and re-created its services
// ConfigMap about 70 times a second (map keys came back sorted) and could never write its Lease. Here the
// operator runs a mixed world (two BYOH hosts, two vSphere Machines, drift checks every second) to Ready,
// then the API server's own request log is read for one minute of steady state.

const STEADY_MS = 60_000;
/** Writes of one object (or creates in one collection) that a minute of steady state may need. */
const MOST_WRITES = 3;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${LEADER_LEASE_NAME}`;

function countBy(requests: readonly LoggedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of requests)
    counts.set(`${r.method} ${r.path}`, (counts.get(`${r.method} ${r.path}`) ?? 0) + 1);
  return counts;
}

test('a minute of steady state: no object is written more than a few times, and no write is refused', async (t) => {
  const { world } = await mixedWorld(undefined, { keep: true });
  t.teardown(() => world.stop());
  const since = world.cluster.server.requests.total;
  await sleep(STEADY_MS);
  const log = world.cluster.server.requests.since(since);
  const operator = log.find((r) => r.path === LEASE_PATH && r.method === 'PUT')?.user;
  t.truthy(operator, 'the operator renewed its Lease during the minute');
  const writes = log.filter((r) => r.user === operator && WRITES.has(r.method));
  const renewals = writes.filter((r) => r.path === LEASE_PATH).length;
  t.log(`operator requests in ${STEADY_MS / 1000} s: ${log.filter((r) => r.user === operator).length}`);
  t.log(`writes: ${writes.length}, of which Lease renewals: ${renewals}`);
  const often = [...countBy(writes.filter((r) => r.path !== LEASE_PATH))].filter(([, n]) => n > MOST_WRITES);
  t.deepEqual(often, [], 'objects written in a loop');
  const refused = writes
    .filter((r) => (r.status ?? 0) >= 400)
    .map((r) => `${r.status} ${r.method} ${r.path}`);
  t.deepEqual(refused, [], 'writes the API server refused');
});
