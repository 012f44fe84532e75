import test from 'ava';
import { NodeNameTakenError, Registrations } from './registrations.js';

const A = { address: '10.0.0.5', ipv4: '10.0.0.5' };
const B = { address: 'win-b.example.com', ipv4: '10.0.0.6', dnsName: 'win-b.example.com' };

function clock(): { now: () => Date; advance: (ms: number) => void } {
  let t = Date.parse('2026-01-01T00:00:00Z');
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

test('a name is held by one instance: a second claim is refused and the first is untouched', (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  const first = r.register(A, 'win-a');
  const err = t.throws(() => r.register(B, 'win-a'), { instanceOf: NodeNameTakenError });
  t.regex(err.message, /already claimed by instance 10.0.0.5/);
  t.is(r.forNode('win-a'), first);
  t.notThrows(() => r.register(A, 'win-a'), 'the same instance registers again when its join resumes');
});

test('a registration approves at most one client CSR', (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.register(A, 'win-a');
  t.truthy(r.claimClient('win-a', 'csr-1'));
  t.truthy(r.claimClient('win-a', 'csr-1'), 'the same CSR again (a retried approval)');
  t.is(r.claimClient('win-a', 'csr-2'), undefined);
  r.releaseClient('win-a', 'csr-1');
  t.truthy(r.claimClient('win-a', 'csr-2'), 'a claim whose approval could not be written is given back');
  t.is(r.claimClient('nobody', 'csr-3'), undefined);
});

test('a registration ends when its entry goes, when it is ended, and after its time', (t) => {
  const c = clock();
  const r = new Registrations({ ttlMs: 60_000, now: c.now });
  r.register(A, 'win-a');
  r.register(B, 'win-b');
  r.retainOnly([B.address]);
  t.is(r.forNode('win-a'), undefined);
  t.truthy(r.forNode('win-b'));
  c.advance(60_000);
  t.is(r.forNode('win-b'), undefined, 'expired');
  t.is(r.claimClient('win-b', 'csr-1'), undefined, 'nothing is approved for it afterwards');
  t.notThrows(() => r.register(A, 'win-b'), 'an expired claim holds the name no more');
  r.end(A.address);
  t.is(r.forAddress(A.address), undefined);
});

test('owned nodes hold their names until disowned or their entry goes', (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  r.own({ ...B, nodeName: 'win-b' });
  t.is(r.owner('win-b')?.address, B.address);
  t.throws(() => r.register(A, 'win-b'), { instanceOf: NodeNameTakenError });
  r.disown(B.address);
  t.is(r.owner('win-b'), undefined);
  r.own({ ...B, nodeName: 'win-b' });
  r.retainOnly([]);
  t.is(r.holderOf('win-b'), undefined);
});

test('listeners hear of new registrations and owned nodes, so pending CSRs are looked at again', (t) => {
  const r = new Registrations({ ttlMs: 60_000 });
  let heard = 0;
  r.onChange(() => heard++);
  r.register(A, 'win-a');
  r.own({ ...A, nodeName: 'win-a' });
  r.own({ ...A, nodeName: 'win-a' });
  t.is(heard, 2);
});

test('a resumed registration accepts the client CSR its kubelet sent under the earlier one', (t) => {
  const c = clock();
  const r = new Registrations({ ttlMs: 60_000, now: c.now });
  t.is(r.register(A, 'win-a').acceptsSince.getTime(), c.now().getTime());
  const resumed = r.register(A, 'win-a', { resumed: true });
  t.is(resumed.acceptsSince.getTime(), c.now().getTime() - 60_000);
});
