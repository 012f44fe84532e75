import test from 'ava';
import { ApiextensionsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { NODE_RECORD_LABEL, decodeNodeRecord } from '@wmco/core/internal';
import { createNamespacedConfigMap } from './existing-objects.test-helper.js';
import { outsideForTest, wmcoSim } from './outside-cluster.test-helper.js';

// The checks attach mode makes before it writes anything, against a plain cluster in its own process.

const OPERATOR_NS = 'openshift-windows-machine-config-operator';
const MCO_NS = 'openshift-machine-config-operator';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function crdCount(kc: KubeConfig): Promise<number> {
  return (await kc.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition()).items.length;
}

async function namespaceExists(kc: KubeConfig, name: string): Promise<boolean> {
  const names = (await kc.makeApiClient(CoreV1Api).listNamespace()).items.map((n) => n.metadata?.name);
  return names.includes(name);
}

test.serial('a node-bootstrapper token without ca.crt is refused before anything is written', async (t) => {
  const o = await outsideForTest(t);
  const core = o.kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: MCO_NS } } });
  await core.createNamespacedSecret({
    namespace: MCO_NS,
    body: {
      metadata: { name: 'node-bootstrapper-token' },
      type: 'Opaque',
      data: { token: b64('abcdef.0123456789abcdef') },
    },
  });
  const group = 'system:bootstrappers:windows';
  const r = await wmcoSim([
    ...['--cluster', o.kubeconfig, '--hosts', '1', '--seed', '--bootstrap-group', group],
    ...['--timeout', '30'],
  ]);
  t.not(r.code, 0);
  t.regex(
    r.stderr,
    /secret openshift-machine-config-operator\/node-bootstrapper-token has a token but no ca\.crt/,
  );
  t.is(await crdCount(o.kc), 0, 'nothing seeded');
  t.false(await namespaceExists(o.kc, OPERATOR_NS));
});

test.serial(
  '--seed with a token Secret seeded for another --bootstrap-group is refused, naming both groups',
  async (t) => {
    const o = await outsideForTest(t);
    const first = await wmcoSim([
      '--cluster',
      o.kubeconfig,
      '--hosts',
      '1',
      '--seed',
      '--bootstrap-group',
      'system:bootstrappers:old',
    ]);
    t.is(first.code, 0, `${first.stdout}\n${first.stderr}`);
    const tokens = async (): Promise<number> =>
      (await o.kc.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'kube-system' })).items.filter(
        (s) => s.type === 'bootstrap.kubernetes.io/token',
      ).length;
    t.is(await tokens(), 1);

    const other = await wmcoSim([
      '--cluster',
      o.kubeconfig,
      '--hosts',
      '1',
      '--seed',
      '--bootstrap-group',
      'system:bootstrappers:new',
      '--timeout',
      '30',
      '--cleanup',
    ]);
    t.not(other.code, 0);
    // Refused before writing: --cleanup has nothing to delete (the first run's objects are not its own).
    t.regex(other.stdout, /cleanup: the run created nothing in the cluster/);
    t.regex(
      other.stderr,
      /node-bootstrapper-token holds bootstrap token [a-z0-9]{6} .* system:bootstrappers:old/,
    );
    t.regex(other.stderr, /only for bootstrap tokens in system:bootstrappers:new \(--bootstrap-group/);
    t.regex(other.stderr, /run with --bootstrap-group system:bootstrappers:old, or delete secret/);
    t.is(await tokens(), 1, 'no second bootstrap token seeded');

    // The same token, and no --bootstrap-group: the operator would wait for OpenShift's node-bootstrapper.
    const none = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '1', '--timeout', '30']);
    t.not(none.code, 0);
    t.regex(
      none.stderr,
      /only for system:serviceaccount:openshift-machine-config-operator:node-bootstrapper/,
    );
    t.regex(none.stderr, /run with --bootstrap-group system:bootstrappers:old/);
  },
);

test.serial(
  'a second run clears the host-key pins and Nodes the first left behind, and joins its hosts',
  async (t) => {
    const o = await outsideForTest(t);
    const args = ['--cluster', o.kubeconfig, '--hosts', '2', '--seed', '--timeout', '60'];
    const first = await wmcoSim(args);
    t.is(first.code, 0, `${first.stdout}\n${first.stderr}`);
    const records = await o.kc.makeApiClient(CoreV1Api).listNamespacedConfigMap({
      namespace: OPERATOR_NS,
      labelSelector: NODE_RECORD_LABEL,
    });
    const pinned = records.items.map(decodeNodeRecord).find((r) => r?.dnsName === 'win-byoh-02.sim.internal');
    t.truthy(pinned?.hostKey, "the first run pinned its DNS-listed host, in the host's node record");

    const second = await wmcoSim(args);
    t.is(second.code, 0, `${second.stdout}\n${second.stderr}`);
    t.regex(
      second.stdout,
      /host-key pins: cleared those earlier attach-mode runs left for win-byoh-02\.sim\.internal/,
    );
    t.regex(second.stdout, /Nodes: deleted those earlier simulated hosts left .*: win-byoh-01, win-byoh-02/);
    t.regex(second.stdout, /Ready \(win-byoh-02\)/);
  },
);

test.serial(
  "a host-key pin that is not an earlier run's is refused, naming the ConfigMap and --cleanup",
  async (t) => {
    const o = await outsideForTest(t);
    const core = o.kc.makeApiClient(CoreV1Api);
    const data = { 'win-byoh-02.sim.internal': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx' };
    await createNamespacedConfigMap(core, OPERATOR_NS, 'windows-ssh-host-keys-pending', data);
    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '2', '--seed', '--timeout', '30']);
    t.not(r.code, 0);
    t.regex(
      r.stderr,
      /ConfigMap openshift-windows-machine-config-operator\/windows-ssh-host-keys-pending \(or windows-ssh-host-keys\) pin SSH host keys for win-byoh-02\.sim\.internal/,
    );
    t.regex(r.stderr, /--cleanup/);
    t.is(await crdCount(o.kc), 0, 'nothing seeded');
    t.deepEqual(
      (await core.readNamespacedConfigMap({ name: 'windows-ssh-host-keys-pending', namespace: OPERATOR_NS }))
        .data,
      data,
    );
  },
);

test.serial(
  "a Node named as a host that is not a simulated host's is kept, with a warning, and the host refused",
  async (t) => {
    const o = await outsideForTest(t);
    const core = o.kc.makeApiClient(CoreV1Api);
    const node = await core.createNode({ body: { metadata: { name: 'win-byoh-01' } } });
    const addresses = [{ type: 'InternalIP', address: '10.0.0.7' }];
    await core.replaceNodeStatus({ name: 'win-byoh-01', body: { ...node, status: { addresses } } });
    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '1', '--seed', '--timeout', '120']);
    t.not(r.code, 0);
    t.regex(
      r.stdout,
      /warning: the cluster has Nodes named as this run's hosts would register: win-byoh-01 \(10\.0\.0\.7\)/,
    );
    t.regex(r.stdout, /Failed: .*win-byoh-01/);
    t.notRegex(r.stdout, /Nodes: deleted/);
    const kept = (await core.readNode({ name: 'win-byoh-01' })).status?.addresses ?? [];
    t.deepEqual(
      kept.map((a) => ({ type: a.type, address: a.address })),
      addresses,
    );
  },
);
