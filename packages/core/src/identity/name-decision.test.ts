import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { decideNodeName, NodeNameError, type NameDecisionFacts } from './name-decision.js';
import { Registrations } from './registrations.js';

const A = { address: '10.0.0.5', ipv4: '10.0.0.5' };
const B = { address: '10.0.0.6', ipv4: '10.0.0.6' };
const OWNER = 'windowsmachineconfig.openshift.io/instance-address';

function node(name: string, owner?: string): V1Node {
  return { metadata: { name, ...(owner ? { annotations: { [OWNER]: owner } } : {}) } };
}

function facts(
  nodes: V1Node[],
  approved: Record<string, string> = {},
  recordedNode?: string,
): NameDecisionFacts {
  return {
    registrations: new Registrations({ ttlMs: 60_000 }),
    node: (name) => Promise.resolve(nodes.find((n) => n.metadata?.name === name)),
    approvedClientCsr: (name, address) => approved[`${name}/${address}`],
    recordedNode,
  };
}

test('the name is the override, else the computer name, as the kubelet registers it', async (t) => {
  const f = facts([]);
  t.is(
    (await decideNodeName(A, { hostnameOverride: '', hostname: 'WIN-BYOH-01' }, f)).nodeName,
    'win-byoh-01',
  );
  const r = await decideNodeName(B, { hostnameOverride: 'WIN-B.Example.com', hostname: 'WIN-B' }, f);
  t.like(r, { nodeName: 'win-b.example.com', address: B.address });
  t.is(f.registrations.forNode('win-b.example.com')?.address, B.address);
});

test('the name of any existing Node not joined from this instance is refused', async (t) => {
  const f = facts([node('master-0'), node('win-a', B.address)]);
  const linux = await t.throwsAsync(decideNodeName(A, { hostname: 'MASTER-0' }, f), {
    instanceOf: NodeNameError,
  });
  t.regex(
    linux.message,
    /instance 10.0.0.5 cannot join: the host reports node name master-0, taken by an existing Node the operator has no record of joining; delete that Node/,
  );
  const other = await t.throwsAsync(decideNodeName(A, { hostname: 'WIN-A' }, f));
  t.regex(other.message, /its own annotation names instance 10.0.0.6, which the operator does not trust/);
  t.is(f.registrations.forNode('master-0'), undefined, 'nothing registered');
});

test('a second instance claiming a name another instance registered is refused', async (t) => {
  const f = facts([]);
  await decideNodeName(A, { hostname: 'WIN-A' }, f);
  const err = await t.throwsAsync(decideNodeName(B, { hostname: 'win-a' }, f));
  t.regex(err.message, /already claimed by instance 10.0.0.5/);
  t.is(f.registrations.forNode('win-a')?.address, A.address);
});

test("the Node the operator's record of this instance names is its own again (a repeated join)", async (t) => {
  const f = facts([node('win-a', A.address)], {}, 'win-a');
  t.is((await decideNodeName(A, { hostname: 'WIN-A' }, f)).nodeName, 'win-a');
});

test('a Node that existed before the join and names this instance in its own annotation is refused (issue 27)', async (t) => {
  // A squatter: a kubelet identity created Node win-a before the first join, annotated as this instance's.
  const f = facts([node('win-a', A.address)]);
  const err = await t.throwsAsync(decideNodeName(A, { hostname: 'WIN-A' }, f), { instanceOf: NodeNameError });
  t.regex(
    err.message,
    /no record of joining \(its own annotation names instance 10.0.0.5, which the operator/,
  );
  t.is(f.registrations.forNode('win-a'), undefined, 'nothing registered');
  const elsewhere = facts([node('win-a', A.address)], {}, 'win-old');
  await t.throwsAsync(decideNodeName(A, { hostname: 'WIN-A' }, elsewhere), { instanceOf: NodeNameError });
  const recordedForB = { ...facts([node('win-a', A.address)]), recordedFor: (): string => B.address };
  await t.throwsAsync(decideNodeName(A, { hostname: 'WIN-A' }, recordedForB), {
    message: /taken by an existing Node of instance 10.0.0.6$/,
  });
});

test('an unannotated Node whose client CSR this operator approved for this instance is resumed, bound to that CSR', async (t) => {
  const f = facts([node('win-a')], { 'win-a/10.0.0.5': 'csr-abc' });
  const r = await decideNodeName(A, { hostname: 'WIN-A' }, f);
  t.is(r.approvedClientCsr, 'csr-abc');
  await t.throwsAsync(
    decideNodeName(B, { hostname: 'WIN-A' }, facts([node('win-a')], { 'win-a/10.0.0.5': 'csr-abc' })),
    {
      message: /taken by an existing Node/,
    },
  );
});

test('invalid and non-ASCII reported names are refused', async (t) => {
  for (const hostname of ['WIN_A', 'win\u212a', '']) {
    await t.throwsAsync(decideNodeName(A, { hostname }, facts([])), { instanceOf: NodeNameError }, hostname);
  }
});

test('a join that finds the kubelet already started registers as resumed', async (t) => {
  const f = facts([]);
  const fresh = await decideNodeName(A, { hostname: 'WIN-A' }, f);
  t.is(fresh.acceptsSince.getTime(), fresh.createdAt.getTime());
  const resumed = await decideNodeName(A, { hostname: 'WIN-A', kubeletPresent: true }, f);
  t.true(resumed.acceptsSince < resumed.createdAt);
});
