import test from 'ava';
import { CertificatesV1Api, KubeConfig } from '@kubernetes/client-node';
import { createCsr, type CsrSubject } from '@wmco/core';
import { eventsAbout, phaseIs, testWorld, until, apis } from './world-fixture.js';

const CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const SERVING = 'kubernetes.io/kubelet-serving';

test.serial('hostile CSRs against a known instance are never approved', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-H' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until('WIN-H Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);

  // Sent with the node-bootstrapper token every BYOH host receives, as a rogue host could. The join is
  // over, so its registration has ended: client CSRs are left alone silently, the serving CSR (not sent
  // by the node itself) is refused with an event.
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const cluster = kc.getCurrentCluster()!;
  const boot = new KubeConfig();
  boot.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'boot', token: world.cluster.nodeBootstrapperToken }],
    contexts: [{ name: 'boot', cluster: cluster.name, user: 'boot' }],
    currentContext: 'boot',
  });
  const api = boot.makeApiClient(CertificatesV1Api);
  const hostile: [string, CsrSubject, string, string[]][] = [
    [
      'wrong-cn',
      { commonName: 'win-h', organizations: ['system:nodes'] },
      CLIENT,
      ['digital signature', 'client auth'],
    ],
    [
      'extra-org',
      { commonName: 'system:node:win-h', organizations: ['system:nodes', 'system:masters'] },
      CLIENT,
      ['digital signature', 'client auth'],
    ],
    [
      'wrong-usages',
      { commonName: 'system:node:win-h', organizations: ['system:nodes'] },
      CLIENT,
      ['digital signature', 'server auth'],
    ],
    [
      'other-node-serving',
      { commonName: 'system:node:win-h', organizations: ['system:nodes'], dnsNames: ['win-h'] },
      SERVING,
      ['digital signature', 'server auth'],
    ],
    [
      'contains-hostname',
      { commonName: 'system:node:win-h-evil', organizations: ['system:nodes'] },
      CLIENT,
      ['digital signature', 'client auth'],
    ],
    [
      'existing-node-client',
      { commonName: 'system:node:win-h', organizations: ['system:nodes'] },
      CLIENT,
      ['digital signature', 'client auth'],
    ],
  ];
  for (const [name, subject, signerName, usages] of hostile) {
    const { pem } = await createCsr(subject);
    await api.createCertificateSigningRequest({
      body: {
        metadata: { name: `hostile-${name}` },
        spec: { request: Buffer.from(pem).toString('base64'), signerName, usages },
      },
    });
  }
  await until('refusal events', async () => {
    const n = (await eventsAbout(world)).filter((e) => e.reason === 'CSRNotApproved').length;
    return n >= 1 ? n : undefined;
  });
  await new Promise((r) => setTimeout(r, 1000));
  const all = (await apis(world).certificates.listCertificateSigningRequest()).items.filter((c) =>
    c.metadata?.name?.startsWith('hostile-'),
  );
  t.is(all.length, hostile.length);
  for (const c of all) {
    t.false(
      (c.status?.conditions ?? []).some((x) => x.type === 'Approved'),
      `${c.metadata?.name} must stay unapproved`,
    );
  }
});
