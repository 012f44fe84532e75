import test from 'ava';
import { bootstrapTokenIdentity, openShiftBootstrapIdentity } from '../identity/bootstrap-identity.js';
import type { OwnedNode, Registration } from '../identity/registrations.js';
import { createCsr, type CsrSubject } from './create-csr.js';
import {
  decideKubeletCsr,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  type CsrFacts,
  type CsrSpec,
} from './csr-policy.js';
import { parseCsr } from './csr-request.js';

const SA = 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper';
const BEGAN = new Date(Date.now() - 60_000);
const registrations: Record<string, Registration> = {
  'win-a': {
    address: '10.0.0.5',
    ipv4: '10.0.0.5',
    nodeName: 'win-a',
    createdAt: BEGAN,
    acceptsSince: BEGAN,
  },
  'win-c': {
    address: '10.0.0.7',
    ipv4: '10.0.0.7',
    nodeName: 'win-c',
    createdAt: BEGAN,
    acceptsSince: BEGAN,
    approvedClientCsr: 'csr-first',
  },
};
const owned: Record<string, OwnedNode> = {
  'win-b': {
    address: 'win-b.example.com',
    ipv4: '10.0.0.6',
    dnsName: 'win-b.example.com',
    nodeName: 'win-b',
  },
  'win-a': { address: '10.0.0.5', ipv4: '10.0.0.5', nodeName: 'win-a' },
};
const existing = new Set(['win-b', 'worker-0']);
const facts = (extra: Partial<CsrFacts> = {}): CsrFacts => ({
  bootstrap: openShiftBootstrapIdentity,
  registration: (n) => registrations[n],
  owned: (n) => owned[n],
  nodeExists: (n) => existing.has(n),
  ...extra,
});
const clientSpec: CsrSpec = {
  name: 'csr-x',
  signerName: KUBELET_CLIENT_SIGNER,
  usages: ['digital signature', 'client auth'],
  username: SA,
  groups: ['system:serviceaccounts', 'system:serviceaccounts:openshift-machine-config-operator'],
  created: new Date(),
};
const servingSpec = (node: string): CsrSpec => ({
  name: 'csr-s',
  signerName: KUBELET_SERVING_SIGNER,
  usages: ['digital signature', 'server auth'],
  username: `system:node:${node}`,
  groups: ['system:nodes', 'system:authenticated'],
});

async function decide(subject: CsrSubject, spec: CsrSpec, f: CsrFacts = facts()) {
  return decideKubeletCsr(await parseCsr((await createCsr(subject)).pem), spec, f);
}
const node = (name: string, extra: Partial<CsrSubject> = {}): CsrSubject => ({
  commonName: `system:node:${name}`,
  organizations: ['system:nodes'],
  ...extra,
});

test('approves the client CSR of a live registration from the node-bootstrapper account', async (t) => {
  const d = await decide(node('win-a'), clientSpec);
  t.like(d, { action: 'approve', instance: { address: '10.0.0.5', nodeName: 'win-a' } });
});

test('approves key encipherment too, as RSA kubelets send it', async (t) => {
  const usages = ['digital signature', 'key encipherment', 'client auth'];
  t.is((await decide(node('win-a'), { ...clientSpec, usages })).action, 'approve');
});

test('approves the one client CSR already bound to the registration again (a retried approval)', async (t) => {
  t.is((await decide(node('win-c'), { ...clientSpec, name: 'csr-first' })).action, 'approve');
});

test('with a bootstrap-token group, approves bootstrap-token users of that group only', async (t) => {
  const f = facts({ bootstrap: bootstrapTokenIdentity('system:bootstrappers:worker') });
  const token = {
    username: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers', 'system:bootstrappers:worker'],
  };
  t.is((await decide(node('win-a'), { ...clientSpec, ...token }, f)).action, 'approve');
  const sa = await decide(node('win-a'), clientSpec, f);
  t.like(sa, { action: 'refuse' });
  const otherGroup = { ...token, groups: ['system:bootstrappers'] };
  t.regex(
    (await decide(node('win-a'), { ...clientSpec, ...otherGroup }, f)).reason,
    /not in system:bootstrappers:worker/,
  );
});

test('approves the serving CSR of an owned node with the SANs the operator knows of its instance', async (t) => {
  const d = await decide(
    node('win-b', { dnsNames: ['win-b', 'win-b.example.com'], ipAddresses: ['10.0.0.6'] }),
    servingSpec('win-b'),
  );
  t.like(d, { action: 'approve', instance: { address: 'win-b.example.com', nodeName: 'win-b' } });
});

const refused: [string, CsrSubject, CsrSpec, RegExp][] = [
  [
    'several organizations',
    node('win-a', { organizations: ['system:nodes', 'system:masters'] }),
    clientSpec,
    /exactly one organization/,
  ],
  [
    'wrong organization',
    node('win-a', { organizations: ['system:masters'] }),
    clientSpec,
    /organization must be/,
  ],
  [
    'unexpected usages',
    node('win-a'),
    { ...clientSpec, usages: ['digital signature', 'server auth'] },
    /not allowed: server auth/,
  ],
  ['a usage twice', node('win-a'), { ...clientSpec, usages: ['client auth', 'client auth'] }, /twice/],
  ['a single usage', node('win-a'), { ...clientSpec, usages: ['client auth'] }, /too few/],
  [
    'a client certificate with SANs',
    node('win-a', { dnsNames: ['win-a'] }),
    clientSpec,
    /may not carry SANs/,
  ],
  ['a client CSR with an e-mail SAN', node('win-a', { emails: ['a@b.c'] }), clientSpec, /not allowed: email/],
  [
    'a requester that is a bootstrap token',
    node('win-a'),
    { ...clientSpec, username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] },
    /not by the node bootstrapper/,
  ],
  [
    'a requester that is an admin',
    node('win-a'),
    { ...clientSpec, username: 'admin', groups: ['system:masters'] },
    /requested by admin/,
  ],
  [
    'a second client CSR for one registration',
    node('win-c'),
    { ...clientSpec, name: 'csr-second' },
    /already has an approved client CSR \(csr-first\)/,
  ],
  ['a serving CSR from another identity', node('win-b'), servingSpec('win-a'), /not by node win-b itself/],
  [
    'a serving CSR with an address the node added to its status',
    node('win-b', { ipAddresses: ['10.0.0.6', '192.0.2.7'] }),
    servingSpec('win-b'),
    /IP SAN 192.0.2.7/,
  ],
  [
    'a serving CSR with a name the node added to its status',
    node('win-b', { dnsNames: ['api.example.com'] }),
    servingSpec('win-b'),
    /DNS SAN api.example.com/,
  ],
  [
    'a serving CSR with a SAN in another case',
    node('win-b', { dnsNames: ['WIN-B.example.com'] }),
    servingSpec('win-b'),
    /DNS SAN WIN-B.example.com/,
  ],
  [
    'a serving CSR with an e-mail SAN',
    node('win-b', { emails: ['x@y.z'] }),
    servingSpec('win-b'),
    /not allowed: email/,
  ],
  [
    'a serving CSR with client usages',
    node('win-b'),
    { ...servingSpec('win-b'), usages: ['digital signature', 'client auth'] },
    /not allowed: client auth/,
  ],
  [
    'a serving CSR for an owned node that does not exist',
    node('win-a'),
    servingSpec('win-a'),
    /does not exist/,
  ],
];

for (const [title, subject, spec, reason] of refused) {
  test(`refuses, with a reason: ${title}`, async (t) => {
    const d = await decide(subject, spec);
    t.is(d.action, 'refuse');
    t.regex(d.reason, reason);
  });
}

test('refuses a client CSR sent before its registration began (a name guessed in advance)', async (t) => {
  const early = new Date(BEGAN.getTime() - 2000);
  const d = await decide(node('win-a'), { ...clientSpec, created: early });
  t.like(d, { action: 'refuse', reason: 'created before the registration of instance 10.0.0.5 began' });
  t.is((await decide(node('win-a'), { ...clientSpec, created: BEGAN })).action, 'approve', 'same second');
});

test('refuses a client CSR for a registered name whose Node exists', async (t) => {
  const d = await decide(node('win-a'), clientSpec, facts({ nodeExists: () => true }));
  t.like(d, { action: 'refuse', reason: 'node win-a already exists' });
});

test('ignores, silently, what is not a node certificate or concerns no registration', async (t) => {
  const ignored: [CsrSubject, CsrSpec][] = [
    [{ commonName: 'admin', organizations: ['system:masters'] }, clientSpec],
    [node('worker-0'), clientSpec], // a Linux node: not ours to judge
    [node('win-b'), clientSpec], // owned, but no live registration: no client certificate
    [node('win-c-evil'), clientSpec],
    [node('WIN-A'), clientSpec], // case trick: names compare exactly
    [node('win-\u212a'), clientSpec], // non-ASCII (Kelvin sign)
    [{ commonName: 'System:Node:win-a', organizations: ['system:nodes'] }, clientSpec],
    [node('win-a'), { ...clientSpec, signerName: 'kubernetes.io/kube-apiserver-client' }],
    [node('worker-0', { dnsNames: ['worker-0'] }), servingSpec('worker-0')],
  ];
  for (const [subject, spec] of ignored)
    t.is((await decide(subject, spec)).action, 'ignore', subject.commonName);
});

test('a serving CSR of a node that contradicts the operator’s record is refused, whatever its SANs', async (t) => {
  const subject = node('win-b', { ipAddresses: ['10.0.0.6'], dnsNames: ['win-b.example.com'] });
  const contradiction = (n: string): string | undefined =>
    n === 'win-b' ? 'its InternalIP is 10.0.0.9, the record 10.0.0.6' : undefined;
  const d = await decide(subject, servingSpec('win-b'), facts({ contradiction }));
  t.is(d.action, 'refuse');
  t.regex(
    d.reason,
    /node win-b contradicts the operator's record of instance win-b\.example\.com: its InternalIP/,
  );
});
