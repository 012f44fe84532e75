import test from 'ava';
import {
  allCsrs,
  approvedClientCsrsFor,
  CLIENT,
  csrApiAsNode,
  csrApiWithToken,
  isApproved,
  NODE_BOOTSTRAPPER,
  SERVING,
  submitCsr,
} from './identity-csrs.js';
import { apis, eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

const subject = (node: string, extra = {}) => ({
  commonName: `system:node:${node}`,
  organizations: ['system:nodes'],
  ...extra,
});

async function refusal(world: Parameters<typeof eventsAbout>[0], csr: string): Promise<string> {
  return until(`refusal of ${csr}`, async () => {
    const e = (await eventsAbout(world)).find(
      (x) => x.reason === 'CSRNotApproved' && x.message.includes(`CSR ${csr} `),
    );
    return e?.message;
  });
}

test.serial(
  'client CSRs: one per registration, only from the node bootstrapper, none after the entry is removed; serving CSRs: only known SANs',
  async (t) => {
    const { world, logs } = await testWorld([
      // Registers its Node 4 s after its certificate: a window in which the registration is live.
      { hostname: 'WIN-S', kubelet: { registerDelayMs: 4000 } },
      // Never gets to send its CSR within the test: its registration is what the removal must end.
      { hostname: 'WIN-T', kubelet: { bootstrapDelayMs: 120_000 } },
    ]);
    t.teardown(() => world.stop());
    const [s, tHost] = world.hosts.hosts.map((h) => h.address) as [string, string];
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const sa = csrApiWithToken(world, world.cluster.nodeBootstrapperToken);
    const kubeadm = csrApiWithToken(world, world.cluster.bootstrapToken);

    // The kubelet's own client CSR, from the node-bootstrapper account, is approved...
    const [own] = await until('the kubelet CSR approved', async () => {
      const l = await approvedClientCsrsFor(world, 'win-s');
      return l.length > 0 ? l : undefined;
    });
    t.is(own?.spec.username, NODE_BOOTSTRAPPER);
    // ...and while its registration is still live (no Node yet), nothing else is.
    t.is(
      (await apis(world).core.listNode()).items.some((n) => n.metadata?.name === 'win-s'),
      false,
    );
    await submitCsr(sa, 'second-client', subject('win-s'), CLIENT);
    await submitCsr(kubeadm, 'kubeadm-client', subject('win-s'), CLIENT);
    t.regex(await refusal(world, 'second-client'), /already has an approved client CSR/);
    t.regex(
      await refusal(world, 'kubeadm-client'),
      /requested by system:bootstrap:[a-z0-9]{6}, not by the node bootstrapper/,
    );
    await until('WIN-S Ready', phaseIs(world, s, 'Ready'), 90_000);

    // Serving CSR: addresses the node wrote into its own status never widen what may be approved.
    const { core } = apis(world);
    const node = await core.readNode({ name: 'win-s' });
    const status = node.status ?? {};
    await core.replaceNodeStatus({
      name: 'win-s',
      body: {
        ...node,
        status: {
          ...status,
          addresses: [
            ...(status.addresses ?? []),
            { type: 'ExternalIP', address: '192.0.2.10' },
            { type: 'ExternalDNS', address: 'api.example.com' },
          ],
        },
      },
    });
    const asNode = await csrApiAsNode(world, 'win-s');
    await submitCsr(
      asNode,
      'serving-wide-ip',
      subject('win-s', { dnsNames: ['win-s'], ipAddresses: [s, '192.0.2.10'] }),
      SERVING,
    );
    await submitCsr(
      asNode,
      'serving-wide-dns',
      subject('win-s', { dnsNames: ['win-s', 'api.example.com'], ipAddresses: [s] }),
      SERVING,
    );
    t.regex(await refusal(world, 'serving-wide-ip'), /IP SAN 192\.0\.2\.10 is not the address of instance/);
    t.regex(await refusal(world, 'serving-wide-dns'), /DNS SAN api\.example\.com is not a name of instance/);
    // The kubelet's own serving CSR (its name and IPv4) was approved: the rule is not just "refuse all".
    const servingApproved = (await allCsrs(world)).filter(
      (c) => c.spec.signerName === SERVING && c.spec.username === 'system:node:win-s' && isApproved(c),
    );
    t.is(servingApproved.length, 1);

    // A registration ends with its entry: a CSR sent after the entry was removed is never approved.
    await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
    const waiting = await until('WIN-T registered', phaseIs(world, tHost, 'WaitingForNode'), 90_000);
    t.is(waiting.node, 'win-t');
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await new Promise((r) => setTimeout(r, 1000));
    await submitCsr(sa, 'after-removal', subject('win-t'), CLIENT);
    await new Promise((r) => setTimeout(r, 2000));

    if (process.env['IDENTITY_DEBUG']) console.log(logs.filter((l) => /CSR|csr/.test(l)).join('\n'));
    const byName = new Map((await allCsrs(world)).map((c) => [c.metadata?.name ?? '', c]));
    for (const name of [
      'second-client',
      'kubeadm-client',
      'serving-wide-ip',
      'serving-wide-dns',
      'after-removal',
    ]) {
      const c = byName.get(name);
      t.truthy(c, name);
      t.false(c !== undefined && isApproved(c), `${name} must stay unapproved`);
    }
    t.is((await approvedClientCsrsFor(world, 'win-s')).length, 1, 'one client certificate for win-s');
    const refusals = (await eventsAbout(world)).filter((e) => e.reason === 'CSRNotApproved');
    t.is(refusals.length, 4, 'one event per refused CSR, none for the CSR that concerns no registration');
  },
);
