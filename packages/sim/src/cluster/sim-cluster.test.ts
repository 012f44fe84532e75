import test from 'ava';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawCall } from '../testing/raw-client.js';
import { HYBRID_SUBNET_ANNOTATION } from './hybrid-overlay.js';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from './sim-cluster.js';

let c: SimCluster;
test.before(async () => {
  c = await startSimCluster({
    platform: 'None',
    rbac: true,
    nodeGracePeriodSeconds: 1,
    nodeLifecycleIntervalMs: 100,
  });
});
test.after.always(async () => {
  await c.stop();
});

const as =
  (token: string) =>
  (path: string, r: Parameters<typeof rawCall>[3] = {}) =>
    rawCall(c.server.url, c.server.caPem, path, { token, ...r });
const admin = (path: string, r: Parameters<typeof rawCall>[3] = {}): ReturnType<typeof rawCall> =>
  as(c.admin.token)(path, r);

async function eventually<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test.serial(
  'the seed: infrastructure, networks, MCO objects, bootstrapper secret, operator namespace',
  async (t) => {
    const infra = (await admin('/apis/config.openshift.io/v1/infrastructures/cluster')).json<{
      status: Record<string, unknown>;
    }>();
    t.like(infra.status, {
      platform: 'None',
      apiServerInternalURI: c.server.url,
      infrastructureName: c.infrastructureName,
      platformStatus: { type: 'None' },
    });
    const net = (await admin('/apis/operator.openshift.io/v1/networks/cluster')).json<{
      spec: {
        defaultNetwork: { ovnKubernetesConfig: { hybridOverlayConfig: { hybridOverlayVXLANPort: number } } };
      };
    }>();
    t.is(net.spec.defaultNetwork.ovnKubernetesConfig.hybridOverlayConfig.hybridOverlayVXLANPort, 9898);
    const cc = (
      await admin('/apis/machineconfiguration.openshift.io/v1/controllerconfigs/machine-config-controller')
    ).json<{ spec: { kubeAPIServerServingCAData: string } }>();
    t.is(Buffer.from(cc.spec.kubeAPIServerServingCAData, 'base64').toString(), c.server.caPem);
    const mcs = (await admin('/apis/machineconfiguration.openshift.io/v1/machineconfigs')).json<{
      items: {
        metadata: { name: string };
        spec: { config: { systemd: { units: { name: string; contents: string }[] } } };
      }[];
    }>();
    const rendered = mcs.items.find((m) => m.metadata.name.startsWith('rendered-worker-'));
    t.regex(
      rendered?.spec.config.systemd.units.find((u) => u.name === 'kubelet.service')?.contents ?? '',
      /ExecStart=.*kubelet/,
    );
    // As OpenShift has it: a populated service-account token Secret of node-bootstrapper (reference §1.9).
    const secret = (
      await admin('/api/v1/namespaces/openshift-machine-config-operator/secrets/node-bootstrapper-token')
    ).json<{
      type: string;
      metadata: { annotations: Record<string, string> };
      data: Record<string, string>;
    }>();
    t.is(secret.type, 'kubernetes.io/service-account-token');
    const sa = (
      await admin('/api/v1/namespaces/openshift-machine-config-operator/serviceaccounts/node-bootstrapper')
    ).json<{ metadata: { uid: string } }>();
    t.like(secret.metadata.annotations, {
      'kubernetes.io/service-account.name': 'node-bootstrapper',
      'kubernetes.io/service-account.uid': sa.metadata.uid,
    });
    const field = (k: string): string => Buffer.from(secret.data[k] ?? '', 'base64').toString();
    t.is(field('token'), c.nodeBootstrapperToken);
    t.is(field('ca.crt'), c.server.caPem);
    t.is(field('namespace'), 'openshift-machine-config-operator');
    t.is(
      (
        await admin(
          `/api/v1/namespaces/${OPERATOR_NAMESPACE}/serviceaccounts/windows-machine-config-operator`,
        )
      ).code,
      200,
    );
    t.is((await admin('/api/v1/namespaces/openshift-config/secrets/pull-secret')).code, 200);
  },
);

test.serial('a kubeconfig per user: admin, operator service account, bootstrap token', async (t) => {
  const files = await c.writeKubeconfigs(await mkdtemp(join(tmpdir(), 'wmco-kcs-')));
  for (const [who, file] of Object.entries(files)) {
    const text = await readFile(file, 'utf8');
    t.regex(text, new RegExp(`server: ${c.server.url.replaceAll('.', '\\.')}`), who);
    t.regex(text, /certificate-authority-data: /, who);
  }
  t.regex(
    await readFile(files.bootstrap, 'utf8'),
    new RegExp(`token: ${c.bootstrapToken.replace('.', '\\.')}`),
  );
});

test.serial('RBAC: the operator SA is forbidden until a binding allows it; 403 names the user', async (t) => {
  const op = as(c.operator.token);
  const denied = await op('/api/v1/nodes');
  t.is(denied.code, 403);
  t.is(
    denied.json<{ message: string }>().message,
    'nodes is forbidden: User "system:serviceaccount:openshift-windows-machine-config-operator:windows-machine-config-operator" cannot list resource "nodes" in API group "" at the cluster scope',
  );
  await admin('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    method: 'POST',
    body: {
      metadata: { name: 'node-reader' },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }],
    },
  });
  await admin('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    method: 'POST',
    body: {
      metadata: { name: 'op-node-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-reader' },
      subjects: [
        { kind: 'ServiceAccount', name: 'windows-machine-config-operator', namespace: OPERATOR_NAMESPACE },
      ],
    },
  });
  t.is((await op('/api/v1/nodes')).code, 200);
  t.is((await op('/api/v1/nodes/master-0')).code, 200);
  t.is((await op('/api/v1/namespaces/default/configmaps')).code, 403);
  t.is((await op('/version')).code, 200, 'system:discovery for system:authenticated');
});

test.serial(
  'CSR approval needs approve on signers besides update on /approval; bootstrap tokens create CSRs',
  async (t) => {
    const { createCsr } = await import('../apiserver/x509.js');
    const { csrPem } = await createCsr({
      commonName: 'system:node:win-rbac',
      organizations: ['system:nodes'],
    });
    const boot = as(c.bootstrapToken);
    const created = await boot('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      body: {
        metadata: { name: 'rbac-csr' },
        spec: {
          request: Buffer.from(csrPem).toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
          usages: ['digital signature', 'client auth'],
        },
      },
    });
    t.is(created.code, 201, created.text);
    t.regex(created.json<{ spec: { username: string } }>().spec.username, /^system:bootstrap:[a-z0-9]{6}$/);
    t.true(created.json<{ spec: { groups: string[] } }>().spec.groups.includes('system:bootstrappers'));
    // The node-bootstrapper service account may create CSRs too (bound to system:node-bootstrapper).
    const sa = await as(c.nodeBootstrapperToken)('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      body: {
        metadata: { name: 'rbac-csr-sa' },
        spec: {
          request: Buffer.from(csrPem).toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
          usages: ['digital signature', 'client auth'],
        },
      },
    });
    t.is(sa.code, 201, sa.text);
    t.like(sa.json<{ spec: { username: string; groups: string[] } }>().spec, {
      username: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:openshift-machine-config-operator',
        'system:authenticated',
      ],
    });
    const rule = (resources: string[], verbs: string[], extra = {}) => ({
      apiGroups: ['certificates.k8s.io'],
      resources,
      verbs,
      ...extra,
    });
    const grant = async (name: string, rules: unknown[]): Promise<void> => {
      await admin('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        method: 'POST',
        body: { metadata: { name }, rules },
      });
      await admin('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        method: 'POST',
        body: {
          metadata: { name },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
          subjects: [
            {
              kind: 'ServiceAccount',
              name: 'windows-machine-config-operator',
              namespace: OPERATOR_NAMESPACE,
            },
          ],
        },
      });
    };
    await grant('csr-approval', [
      rule(['certificatesigningrequests'], ['get']),
      rule(['certificatesigningrequests/approval'], ['update']),
    ]);
    const op = as(c.operator.token);
    const csr = (await op('/apis/certificates.k8s.io/v1/certificatesigningrequests/rbac-csr')).json<{
      status?: Record<string, unknown>;
    }>();
    const approve = {
      ...csr,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] },
    };
    const denied = await op('/apis/certificates.k8s.io/v1/certificatesigningrequests/rbac-csr/approval', {
      method: 'PUT',
      body: approve,
    });
    t.is(denied.code, 403);
    t.regex(
      denied.json<{ message: string }>().message,
      /user not permitted to approve requests with signerName "kubernetes.io\/kube-apiserver-client-kubelet"/,
    );
    await grant('signer-approve', [rule(['signers'], ['approve'], { resourceNames: ['kubernetes.io/*'] })]);
    const ok = await op('/apis/certificates.k8s.io/v1/certificatesigningrequests/rbac-csr/approval', {
      method: 'PUT',
      body: approve,
    });
    t.is(ok.code, 200, ok.text);
  },
);

test.serial(
  'node lifecycle: a node whose heartbeats stop goes Unknown and gets the unreachable taint, lost when it is Ready again',
  async (t) => {
    const beat = new Date(Date.now() - 5000).toISOString();
    const node = await admin('/api/v1/nodes', {
      method: 'POST',
      body: {
        metadata: { name: 'quiet', labels: { 'kubernetes.io/os': 'windows' } },
        status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: beat }] },
      },
    });
    t.is(node.code, 201, node.text);
    const gone = await eventually('NotReady', async () => {
      const n = (await admin('/api/v1/nodes/quiet')).json<{
        spec: { taints?: { key: string }[] };
        status: { conditions: { type: string; status: string; reason: string }[] };
      }>();
      return n.status.conditions[0]?.status === 'Unknown' && n.spec.taints ? n : undefined;
    });
    t.is(gone.status.conditions[0]?.reason, 'NodeStatusUnknown');
    t.deepEqual(
      gone.spec.taints?.map((x) => x.key),
      ['node.kubernetes.io/unreachable'],
    );
    const master = (await admin('/api/v1/nodes/master-0')).json<{
      status: { conditions: { status: string }[] };
    }>();
    t.is(master.status.conditions[0]?.status, 'True', 'nodes whose lease is renewed stay Ready');
    // The kubelet is back: Ready again, and the controller takes the taint off.
    const back = await admin('/api/v1/nodes/quiet/status', {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: new Date().toISOString() }],
        },
      },
    });
    t.is(back.code, 200, back.text);
    const untainted = await eventually('the unreachable taint removed', async () => {
      const n = (await admin('/api/v1/nodes/quiet')).json<{ spec: { taints?: { key: string }[] } }>();
      return (n.spec.taints ?? []).length === 0 ? n : undefined;
    });
    t.deepEqual(untainted.spec.taints ?? [], []);
  },
);

test.serial('hybrid overlay: each Windows node gets its own subnet, Linux nodes none', async (t) => {
  for (const name of ['win-a', 'win-b'])
    await admin('/api/v1/nodes', {
      method: 'POST',
      body: { metadata: { name, labels: { 'kubernetes.io/os': 'windows' } } },
    });
  const subnets = await eventually('annotations', async () => {
    const all = await Promise.all(
      ['win-a', 'win-b'].map(
        async (n) =>
          (await admin(`/api/v1/nodes/${n}`)).json<{ metadata: { annotations?: Record<string, string> } }>()
            .metadata.annotations?.[HYBRID_SUBNET_ANNOTATION],
      ),
    );
    return all.every((s) => s !== undefined) ? all : undefined;
  });
  t.is(new Set(subnets).size, 2);
  for (const s of subnets) t.regex(s ?? '', /^10\.13[2-5]\.\d+\.0\/23$/);
  const linux = (await admin('/api/v1/nodes/worker-0')).json<{
    metadata: { annotations?: Record<string, string> };
  }>();
  t.is(linux.metadata.annotations?.[HYBRID_SUBNET_ANNOTATION], undefined);
});
