import test from 'ava';
import { MemoryNodeRecords } from '../identity/memory-node-records.js';
import type { CertificatesV1Api, V1CertificateSigningRequest } from '@kubernetes/client-node';
import { createCsr } from '../admit/create-csr.js';
import { openShiftBootstrapIdentity, OPENSHIFT_NODE_BOOTSTRAPPER } from '../identity/bootstrap-identity.js';
import { Registrations } from '../identity/registrations.js';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { silentLogger } from '../kube/logger.js';
import { CsrReconciler, csrDecided } from './csr-reconciler.js';

/**
 * CSRs in memory; approvals are written into their status, as the /approval subresource does. `calls`
 * counts reads and writes; `conflicts` approvals are refused with 409 first (someone else wrote the CSR).
 */
function fakeCsrApi(
  csrs: Map<string, V1CertificateSigningRequest>,
  calls = { reads: 0, writes: 0, conflicts: 0 },
): CertificatesV1Api {
  return {
    readCertificateSigningRequest: ({ name }: { name: string }) => {
      calls.reads++;
      const c = csrs.get(name);
      return c
        ? Promise.resolve(structuredClone(c))
        : Promise.reject(Object.assign(new Error('nf'), { code: 404 }));
    },
    replaceCertificateSigningRequestApproval: ({
      name,
      body,
    }: {
      name: string;
      body: V1CertificateSigningRequest;
    }) => {
      calls.writes++;
      if (calls.conflicts > 0) {
        calls.conflicts--;
        return Promise.reject(Object.assign(new Error('conflict'), { code: 409 }));
      }
      csrs.set(name, body);
      return Promise.resolve(body);
    },
  } as unknown as CertificatesV1Api;
}

async function clientCsr(name: string, node: string): Promise<V1CertificateSigningRequest> {
  const { pem } = await createCsr({ commonName: `system:node:${node}`, organizations: ['system:nodes'] });
  return {
    metadata: { name, creationTimestamp: new Date() },
    spec: {
      request: Buffer.from(pem).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
      username: OPENSHIFT_NODE_BOOTSTRAPPER,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:openshift-machine-config-operator'],
    },
  };
}

const approved = (c: V1CertificateSigningRequest | undefined): boolean =>
  (c?.status?.conditions ?? []).some((x) => x.type === 'Approved');

test('two client CSRs for one registration decided at once: exactly one is approved, the other reported once', async (t) => {
  const registrations = new Registrations({ ttlMs: 60_000, now: () => new Date(Date.now() - 5000) });
  registrations.register({ address: '10.0.0.5', ipv4: '10.0.0.5' }, 'win-a');
  const csrs = new Map([
    ['csr-1', await clientCsr('csr-1', 'win-a')],
    ['csr-2', await clientCsr('csr-2', 'win-a')],
  ]);
  const events = new MemoryEventRecorder();
  const r = new CsrReconciler(fakeCsrApi(csrs), registrations, {
    events,
    logger: silentLogger,
    namespace: 'wmco',
    bootstrap: openShiftBootstrapIdentity,
    readNode: () => Promise.resolve(undefined),
    records: new MemoryNodeRecords(),
  });
  await Promise.all([r.reconcile('csr-1'), r.reconcile('csr-2')]);
  const outcome = [approved(csrs.get('csr-1')), approved(csrs.get('csr-2'))];
  t.is(outcome.filter(Boolean).length, 1, JSON.stringify(outcome));
  const loser = outcome[0] ? 'csr-2' : 'csr-1';
  await r.reconcile(loser);
  t.is(events.events.length, 1, 'one event per refused CSR, however often it is looked at');
  t.regex(
    events.events[0]?.message ?? '',
    new RegExp(`CSR ${loser} for instance 10.0.0.5 was not approved: .*already has an approved client CSR`),
  );
  const message = csrs.get(outcome[0] ? 'csr-1' : 'csr-2')?.status?.conditions?.[0]?.message;
  t.is(
    message,
    'This CSR was approved by the WMCO certificate Approver for node win-a of instance 10.0.0.5.',
  );
});

test('a CSR with an Approved, Denied or Failed condition is decided (the controllers skip it without a read)', (t) => {
  const csr = (types: string[]): V1CertificateSigningRequest => ({
    spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client-kubelet' },
    status: { conditions: types.map((type) => ({ type, status: 'True' })) },
  });
  t.false(csrDecided(csr([])));
  t.false(csrDecided({ spec: { request: '', signerName: 'x' } }));
  for (const type of ['Approved', 'Denied', 'Failed']) t.true(csrDecided(csr([type])), type);
});

test('an approval is written on the CSR the reconcile read (one read, one write); after a conflict it is read again', async (t) => {
  const registrations = new Registrations({ ttlMs: 60_000, now: () => new Date(Date.now() - 5000) });
  registrations.register({ address: '10.0.0.5', ipv4: '10.0.0.5' }, 'win-a');
  registrations.register({ address: '10.0.0.6', ipv4: '10.0.0.6' }, 'win-b');
  const csrs = new Map([
    ['csr-a', await clientCsr('csr-a', 'win-a')],
    ['csr-b', await clientCsr('csr-b', 'win-b')],
  ]);
  const calls = { reads: 0, writes: 0, conflicts: 0 };
  const r = new CsrReconciler(fakeCsrApi(csrs, calls), registrations, {
    events: new MemoryEventRecorder(),
    logger: silentLogger,
    namespace: 'wmco',
    bootstrap: openShiftBootstrapIdentity,
    readNode: () => Promise.resolve(undefined),
    records: new MemoryNodeRecords(),
  });
  await r.reconcile('csr-a');
  t.true(approved(csrs.get('csr-a')));
  t.deepEqual({ reads: calls.reads, writes: calls.writes }, { reads: 1, writes: 1 });
  calls.conflicts = 1;
  await r.reconcile('csr-b');
  t.true(approved(csrs.get('csr-b')));
  t.deepEqual({ reads: calls.reads, writes: calls.writes }, { reads: 3, writes: 3 });
});
