import test from 'ava';
import { createCsr, type CsrSubject } from './create-csr.js';
import {
  decideKubeletCsr,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  type CsrFacts,
  type CsrSpec,
} from './csr-policy.js';
import { parseCsr } from './csr-request.js';

const instances = [
  { address: '10.0.0.5', ipv4: '10.0.0.5', nodeName: 'win-a' },
  { address: 'win-b.example.com', ipv4: '10.0.0.6', nodeName: 'win-b.example.com' },
];
const nodes: Record<string, { addresses: { type: string; address: string }[] }> = {
  'win-b.example.com': {
    addresses: [
      { type: 'InternalIP', address: '10.0.0.6' },
      { type: 'Hostname', address: 'win-b.example.com' },
    ],
  },
};
const facts: CsrFacts = { instances, node: (n) => nodes[n] };
const bootstrap = {
  username: 'system:bootstrap:abcdef',
  groups: ['system:bootstrappers', 'system:authenticated'],
};
const clientSpec: CsrSpec = {
  signerName: KUBELET_CLIENT_SIGNER,
  usages: ['digital signature', 'client auth'],
  ...bootstrap,
};
const servingSpec = (node: string): CsrSpec => ({
  signerName: KUBELET_SERVING_SIGNER,
  usages: ['digital signature', 'server auth'],
  username: `system:node:${node}`,
  groups: ['system:nodes', 'system:authenticated'],
});

async function decide(subject: CsrSubject, spec: CsrSpec) {
  return decideKubeletCsr(await parseCsr((await createCsr(subject)).pem), spec, facts);
}
const client = (name: string, extra: Partial<CsrSubject> = {}) => ({
  commonName: `system:node:${name}`,
  organizations: ['system:nodes'],
  ...extra,
});

test('approves the client CSR of a known instance that has no Node yet', async (t) => {
  const d = await decide(client('win-a'), clientSpec);
  t.like(d, { action: 'approve', nodeName: 'win-a' });
});

test('approves key encipherment too, as RSA kubelets send it', async (t) => {
  const d = await decide(client('win-a'), {
    ...clientSpec,
    usages: ['digital signature', 'key encipherment', 'client auth'],
  });
  t.is(d.action, 'approve');
});

test('approves the serving CSR a node makes for itself with its own names and addresses', async (t) => {
  const d = await decide(
    client('win-b.example.com', { dnsNames: ['win-b.example.com'], ipAddresses: ['10.0.0.6'] }),
    servingSpec('win-b.example.com'),
  );
  t.like(d, { action: 'approve', nodeName: 'win-b.example.com' });
});

const hostile: [string, CsrSubject, CsrSpec, RegExp][] = [
  [
    'extra organization',
    client('win-a', { organizations: ['system:nodes', 'system:masters'] }),
    clientSpec,
    /exactly one organization/,
  ],
  [
    'wrong organization',
    client('win-a', { organizations: ['system:masters'] }),
    clientSpec,
    /organization must be/,
  ],
  [
    'wrong usages',
    client('win-a'),
    { ...clientSpec, usages: ['digital signature', 'server auth'] },
    /not allowed: server auth/,
  ],
  ['single usage', client('win-a'), { ...clientSpec, usages: ['client auth'] }, /too few/],
  ['client cert with SANs', client('win-a', { dnsNames: ['win-a'] }), clientSpec, /may not carry SANs/],
  ['client CSR for an existing node', client('win-b.example.com'), clientSpec, /already exists/],
  [
    'client CSR without a bootstrap token',
    client('win-a'),
    { ...clientSpec, groups: ['system:authenticated'] },
    /bootstrap token/,
  ],
  ['a name that only contains the hostname', client('win-a-evil'), clientSpec, /only contains win-a/],
  [
    'serving CSR for another node',
    client('win-b.example.com'),
    servingSpec('win-a'),
    /not by node win-b.example.com/,
  ],
  [
    'serving CSR with a foreign IP',
    client('win-b.example.com', { ipAddresses: ['10.9.9.9'] }),
    servingSpec('win-b.example.com'),
    /IP SAN 10.9.9.9/,
  ],
  [
    'serving CSR with a foreign name',
    client('win-b.example.com', { dnsNames: ['kubernetes.default'] }),
    servingSpec('win-b.example.com'),
    /DNS SAN/,
  ],
  [
    'serving CSR with an email SAN',
    client('win-b.example.com', { emails: ['x@y.z'] }),
    servingSpec('win-b.example.com'),
    /not allowed: email/,
  ],
  ['serving CSR before the node exists', client('win-a'), servingSpec('win-a'), /does not exist yet/],
];

for (const [title, subject, spec, reason] of hostile) {
  test(`refuses, with a reason: ${title}`, async (t) => {
    const d = await decide(subject, spec);
    t.is(d.action, 'refuse');
    t.regex(d.reason, reason);
  });
}

test('ignores what is not a node certificate or concerns no instance', async (t) => {
  t.is(
    (await decide({ commonName: 'admin', organizations: ['system:masters'] }, clientSpec)).action,
    'ignore',
  );
  t.is((await decide(client('linux-worker-1'), clientSpec)).action, 'ignore');
  t.is(
    (await decide(client('win-a'), { ...clientSpec, signerName: 'kubernetes.io/kube-apiserver-client' }))
      .action,
    'ignore',
  );
});
