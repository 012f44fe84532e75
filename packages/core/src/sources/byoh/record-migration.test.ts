import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import type { Ipv4Resolver } from '../../desired/windows-instances.js';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import { encryptUsername } from '../../identity/username-crypto.js';
import type { ByohView } from './byoh-view.js';
import { StateHost, stateMatching, testDeps } from '../../lifecycle/lifecycle.test-helper.js';
import { NODE_RECORD_NOT_MIGRATED, RecordMigration } from './record-migration.js';

const rsa = (): string =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const KEY = rsa();
const OTHER_KEY = rsa();
const resolve: Ipv4Resolver = (n) =>
  n === 'win-b.example' ? Promise.resolve(['10.0.0.6']) : Promise.reject(new Error('NXDOMAIN'));

interface NodeSpec {
  owner: string;
  ip: string;
  user?: string;
  key?: string;
  byoh?: boolean;
  addresses?: { type: string; address: string }[];
}

function node(name: string, o: NodeSpec): V1Node {
  return {
    metadata: {
      name,
      labels: o.byoh === false ? {} : { 'windowsmachineconfig.openshift.io/byoh': 'true' },
      annotations: {
        'windowsmachineconfig.openshift.io/instance-address': o.owner,
        'windowsmachineconfig.openshift.io/username': encryptUsername(
          o.user ?? 'Administrator',
          o.key ?? KEY,
        ),
      },
    },
    status: { addresses: [{ type: 'InternalIP', address: o.ip }, ...(o.addresses ?? [])] },
  };
}

function view(instances: Record<string, string>, nodes: V1Node[]): ByohView {
  return {
    instances: () => instances,
    windowsNodes: () => nodes,
    windowsNodesRevision: () => 0,
    node: (name) => nodes.find((n) => n.metadata?.name === name),
    privateKey: () => KEY,
  };
}

const host = new StateHost(
  stateMatching({
    directories: [],
    files: [],
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  }),
);
const ENTRIES = { '10.0.0.5': 'username=Administrator', 'win-b.example': 'username=wmco' };

async function migrate(nodes: V1Node[], instances: Record<string, string> = ENTRIES) {
  const records = new MemoryNodeRecords();
  const deps = testDeps(host, { records });
  await new RecordMigration(deps, view(instances, nodes), resolve).once(KEY);
  const refusals = deps.events.events.filter((e) => e.reason === NODE_RECORD_NOT_MIGRATED);
  return { records, refusals: refusals.map((e) => `${e.object.name}: ${e.message}`) };
}

test('a node whose entry, address and username agree gets its record; DNS keys resolve', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5' }),
    node('win-b', { owner: 'win-b.example', ip: '10.0.0.6', user: 'wmco' }),
  ]);
  t.deepEqual(refusals, []);
  const a = records.get('windows-instances', '10.0.0.5');
  t.like(a, { nodeName: 'win-a', address: '10.0.0.5', username: 'Administrator', migrated: true });
  t.deepEqual(a?.appliedTags, [], 'tags a Node lists are never trusted');
  t.like(records.get('windows-instances', 'win-b.example'), {
    nodeName: 'win-b',
    address: '10.0.0.6',
    dnsName: 'win-b.example',
    username: 'wmco',
  });
});

test('no record when the entry does not exist', async (t) => {
  const { records, refusals } = await migrate([node('win-a', { owner: '10.0.0.9', ip: '10.0.0.9' })]);
  t.deepEqual(records.all(), []);
  t.is(refusals.length, 1);
  t.regex(refusals[0] ?? '', /^win-a: .*windows-instances has no entry 10\.0\.0\.9/);
});

test('no record when the InternalIP is not the entry’s address', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: 'win-b.example', ip: '10.0.0.5', user: 'wmco' }),
  ]);
  t.deepEqual(records.all(), []);
  t.regex(refusals[0] ?? '', /its InternalIP 10\.0\.0\.5 is not 10\.0\.0\.6/);
});

test('no record for either of two nodes claiming one instance or address', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5' }),
    node('win-x', { owner: '10.0.0.5', ip: '10.0.0.5' }),
  ]);
  t.deepEqual(records.all(), []);
  t.deepEqual(
    refusals.map((r) => r.split(':')[0]),
    ['win-a', 'win-x'],
  );
  t.regex(refusals[0] ?? '', /node\(s\) win-x claim the same instance or address/);
});

test('no record when the username annotation does not decrypt with the operator’s key', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5', key: OTHER_KEY }),
  ]);
  t.deepEqual(records.all(), []);
  t.regex(refusals[0] ?? '', /does not decrypt with the operator’s key/);
});

test('no record when the username annotation names another user than the entry', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5', user: 'root' }),
  ]);
  t.deepEqual(records.all(), []);
  t.regex(refusals[0] ?? '', /names another user than entry 10\.0\.0\.5/);
});

test('a node that already has a record is left as it is; the migration runs once', async (t) => {
  const records = new MemoryNodeRecords();
  const deps = testDeps(host, { records });
  const nodes = [node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5' })];
  const migration = new RecordMigration(deps, view(ENTRIES, nodes), resolve);
  await migration.once(KEY);
  await migration.once(KEY);
  t.deepEqual(records.writes, ['put windows-instances 10.0.0.5']);
});

test('no record when a Node without the byoh label lists the entry’s address among its addresses', async (t) => {
  const { records, refusals } = await migrate([
    node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5' }),
    // A Machine node (or one that dropped its byoh label), with the address as an ExternalIP only.
    node('win-m', {
      owner: '',
      ip: '10.0.3.3',
      byoh: false,
      addresses: [{ type: 'ExternalIP', address: '10.0.0.5' }],
    }),
  ]);
  t.deepEqual(records.all(), []);
  t.deepEqual(refusals.length, 1, 'only win-a is a migration candidate');
  t.regex(refusals[0] ?? '', /^win-a: .*node\(s\) win-m claim the same instance or address/);
});

test('no record when another Node reports the entry’s DNS name', async (t) => {
  const { records, refusals } = await migrate([
    node('win-b', { owner: 'win-b.example', ip: '10.0.0.6', user: 'wmco' }),
    node('win-y', {
      owner: '',
      ip: '10.0.3.4',
      byoh: false,
      addresses: [{ type: 'InternalDNS', address: 'WIN-B.example' }],
    }),
  ]);
  t.deepEqual(records.all(), []);
  t.regex(refusals[0] ?? '', /^win-b: .*node\(s\) win-y claim/);
});

test('no record when the username annotation is missing', async (t) => {
  const bare = node('win-a', { owner: '10.0.0.5', ip: '10.0.0.5' });
  delete bare.metadata?.annotations?.['windowsmachineconfig.openshift.io/username'];
  const { records, refusals } = await migrate([bare]);
  t.deepEqual(records.all(), []);
  t.regex(refusals[0] ?? '', /^win-a: .*it has no username annotation/);
});
