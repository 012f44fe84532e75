import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import type { Ipv4Resolver } from '../../desired/windows-instances.js';
import type { ByohView } from './byoh-view.js';
import { EntryAdmission } from './entry-admission.js';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import { embedderSource } from './listed-source.js';
import type { InstanceList } from './instance-list.js';

const list: InstanceList = {
  start: () => Promise.resolve(),
  stop: () => undefined,
  synced: true,
  instances: () => ({}),
};

function view(instances: Record<string, string>, nodes: V1Node[] = []): ByohView {
  return {
    instances: () => instances,
    windowsNodes: () => nodes,
    windowsNodesRevision: () => 0,
    node: (name) => nodes.find((n) => n.metadata?.name === name),
    privateKey: () => 'key',
  };
}
const resolve: Ipv4Resolver = (n) =>
  n === 'win-a.example' ? Promise.resolve(['10.0.0.5']) : Promise.reject(new Error('NXDOMAIN'));
const V = 'username=Administrator';

test('the policy is applied (default: strict, loopback refused)', async (t) => {
  const a = new EntryAdmission(view({ '127.0.0.9': V }), { resolve });
  const r = await a.admit('127.0.0.9', V);
  t.false(r.ok);
  t.regex(!r.ok ? r.error : '', /loopback/);
  const sim = new EntryAdmission(view({ '127.0.0.9': V }), {
    resolve,
    policy: () => Promise.resolve({ allowLoopback: true, reserved: new Map() }),
  });
  t.true((await sim.admit('127.0.0.9', V)).ok);
});

test('a second key for one host is refused; the status of an IP key that is the host itself is kept', async (t) => {
  const entries = { '10.0.0.5': V, 'win-a.example': V };
  const a = new EntryAdmission(view(entries), { resolve });
  t.true((await a.admit('win-a.example', V)).ok);
  const dup = await a.admit('10.0.0.5', V);
  t.false(dup.ok);
  t.regex(!dup.ok ? dup.error : '', /reaches the same host \(10\.0\.0\.5\) as entry "win-a\.example"/);
  t.true('keepStatus' in dup, 'the owner’s join reports its status under 10.0.0.5');
});

test('the key the operator recorded for the host owns it, even when asked second; a Node’s claim decides nothing', async (t) => {
  const records = new MemoryNodeRecords([
    {
      source: 'windows-instances',
      instance: '10.0.0.5',
      address: '10.0.0.5',
      nodeName: 'win-a',
      username: 'Administrator',
      appliedTags: [],
      recordedAt: '2026-01-01T00:00:00Z',
    },
  ]);
  // A node that writes another entry's key and this host's address on itself.
  const hostile: V1Node = {
    metadata: {
      name: 'win-x',
      annotations: { 'windowsmachineconfig.openshift.io/instance-address': 'win-a.example' },
    },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.0.5' }] },
  };
  const entries = { '10.0.0.5': V, 'win-a.example': V };
  const a = new EntryAdmission(view(entries, [hostile]), { resolve }, records);
  const byName = await a.admit('win-a.example', V);
  t.false(byName.ok);
  t.false('keepStatus' in byName);
  t.true((await a.admit('10.0.0.5', V)).ok);
});

test('a host another source joined is refused here, and that source’s status of it is left alone', async (t) => {
  const joined = {
    instance: '10.0.0.5',
    address: '10.0.0.5',
    nodeName: 'win-e',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  };
  const records = new MemoryNodeRecords([{ ...joined, source: 'source/windows-hosts' }]);
  const byoh = new EntryAdmission(view({ '10.0.0.5': V }), { resolve }, records);
  const refused = await byoh.admit('10.0.0.5', V);
  t.false(refused.ok);
  t.regex(!refused.ok ? refused.error : '', /joined by source source\/windows-hosts as node win-e/);
  t.true('keepStatus' in refused);
  // The source that joined it admits it.
  const own = { ...view({ '10.0.0.5': V }), source: embedderSource('windows-hosts', list) };
  t.true((await new EntryAdmission(own, { resolve }, records).admit('10.0.0.5', V)).ok);
});

test('admitting each entry of a 1,000-host list reads the records once, not once per entry', async (t) => {
  const hosts = Array.from({ length: 1000 }, (_, i) => `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`);
  const recorded = hosts.map((h, i) => ({
    source: 'windows-instances' as const,
    instance: h,
    address: h,
    nodeName: `win-${i}`,
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  }));
  let reads = 0;
  // The records' list as the store keeps it (one array per change); each element read is counted.
  const all = new Proxy(recorded, {
    get(target, p, receiver) {
      if (typeof p === 'string' && /^\d+$/.test(p)) reads++;
      return Reflect.get(target, p, receiver) as unknown;
    },
  });
  const records = { ...new MemoryNodeRecords([]), all: () => all } as unknown as MemoryNodeRecords;
  const instances = Object.fromEntries(hosts.map((h) => [h, V]));
  const admission = new EntryAdmission(view(instances), { resolve }, records);
  for (const h of hosts) t.true((await admission.admit(h, V)).ok);
  t.true(reads <= 2 * hosts.length, `${reads} record reads for ${hosts.length} entries`);
});
