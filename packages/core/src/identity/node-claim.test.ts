import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { claimNode } from './node-claim.js';
import { NodeNotOwnedError } from './node-ownership.js';
import { Registrations } from './registrations.js';

const OWNER = 'windowsmachineconfig.openshift.io/instance-address';
const A = { address: '10.0.0.5', ipv4: '10.0.0.5' };

function fakeCore(): { core: CoreV1Api; patches: unknown[] } {
  const patches: unknown[] = [];
  const core = {
    patchNode: (r: { name: string; body: unknown }) => {
      patches.push(r);
      return Promise.resolve({});
    },
  } as unknown as CoreV1Api;
  return { core, patches };
}
const node = (owner?: string): V1Node => ({
  metadata: { name: 'win-a', ...(owner ? { annotations: { [OWNER]: owner } } : {}) },
});

test('a Node registered through the client CSR approved for the registration is claimed and annotated', async (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.register(A, 'win-a');
  r.claimClient('win-a', 'csr-1');
  const { core, patches } = fakeCore();
  await claimNode({ core, registrations: r }, A, node());
  t.deepEqual(patches, [{ name: 'win-a', body: { metadata: { annotations: { [OWNER]: A.address } } } }]);
  t.is(r.owner('win-a')?.address, A.address);
});

test("a Node that appeared without an approval of this operator, or is another instance's, is not touched", async (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.register(A, 'win-a');
  const { core, patches } = fakeCore();
  const err = await t.throwsAsync(claimNode({ core, registrations: r }, A, node()), {
    instanceOf: NodeNotOwnedError,
  });
  t.is(
    err.message,
    'will not configure node win-a for instance 10.0.0.5: it was not joined by this operator',
  );
  r.claimClient('win-a', 'csr-1');
  const other = new Registrations({ ttlMs: 60_000 });
  other.register(A, 'win-a');
  await t.throwsAsync(claimNode({ core, registrations: other }, A, node('10.0.0.9')), {
    message: /it was not joined by this operator/,
  });
  t.deepEqual(patches, []);
  t.is(r.owner('win-a'), undefined);
});

test('a Node annotated as this instance’s, with no record and no approval of this operator, is refused (issue 27)', async (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.register(A, 'win-a');
  const { core, patches } = fakeCore();
  await t.throwsAsync(claimNode({ core, registrations: r }, A, node(A.address)), {
    instanceOf: NodeNotOwnedError,
  });
  await t.throwsAsync(claimNode({ core, registrations: r, recordedNode: 'win-b' }, A, node(A.address)), {
    instanceOf: NodeNotOwnedError,
  });
  t.deepEqual(patches, []);
  t.is(r.owner('win-a'), undefined);
  await claimNode({ core, registrations: r, recordedNode: 'win-a' }, A, node(A.address));
  t.deepEqual(patches, [], 'the recorded Node needs no new annotation');
  t.is(r.owner('win-a')?.address, A.address);
});

test('after a restart, the approval an earlier leader wrote lets the join claim the Node', async (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.useApprovals((name, address) => (name === 'win-a' && address === A.address ? 'csr-old' : undefined));
  const { core, patches } = fakeCore();
  await claimNode({ core, registrations: r }, A, node());
  t.is(patches.length, 1);
  await claimNode({ core, registrations: r, recordedNode: 'win-a' }, A, node(A.address));
  t.is(patches.length, 1, 'a recorded Node needs no new annotation');
});
