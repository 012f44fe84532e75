// The operator's /metrics endpoint against the simulated API server with RBAC on: the operator's
// permissions are deploy/'s ClusterRole (TokenReview, SubjectAccessReview), its certificate is the one the
// service CA issues for deploy/'s metrics Service, and each caller is a real service account token.
import test, { type ExecutionContext } from 'ava';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { connect, type SecureVersion, type TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from '@wmco/sim';
import { parseAllDocuments } from 'yaml';
import {
  CachedMetricsAccess,
  DEFAULT_METRICS_ACCESS_LIMITS,
  OperatorMetrics,
  Redactor,
  SecureMetricsServer,
  clusterTlsProfile,
  createLogger,
  kubeMetricsAccess,
  type MetricsAccess,
} from '@wmco/operator';
import { until } from './world-fixture.js';

const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
const SECRET = 'windows-machine-config-operator-metrics-tls';
const SERVER_NAME = `windows-machine-config-operator-metrics.${OPERATOR_NAMESPACE}.svc`;

function deployObjects(file: string, kind: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8'))
    .map((d) => d.toJS() as KubernetesObject)
    .filter((o) => o.kind === kind);
}

async function apply(cluster: SimCluster, objects: readonly KubernetesObject[]): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const o of objects) await api.create(o);
}

/** The Secret's files, as the Deployment's volume holds them. */
async function writeSecret(cluster: SimCluster, dir: string, previous?: string): Promise<string> {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
  const core = kc.makeApiClient(CoreV1Api);
  const data = await until('the service CA filled the metrics Secret', async () => {
    const s = await core.readNamespacedSecret({ name: SECRET, namespace: OPERATOR_NAMESPACE });
    return s.data?.['tls.crt'] && s.data['tls.crt'] !== previous ? s.data : undefined;
  });
  for (const k of ['tls.crt', 'tls.key']) await writeFile(join(dir, k), Buffer.from(data[k] ?? '', 'base64'));
  return data['tls.crt'] ?? '';
}

function get(
  port: number,
  ca: string,
  token?: string,
): Promise<{ code: number; body: string; cert: X509Certificate }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        ca,
        servername: SERVER_NAME,
        agent: false,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          const raw = (res.socket as TLSSocket).getPeerCertificate().raw;
          resolve({ code: res.statusCode ?? 0, body, cert: new X509Certificate(raw) });
        });
      },
    );
    req.once('error', reject);
    req.end();
  });
}

interface MetricsWorld {
  readonly cluster: SimCluster;
  readonly dir: string;
  readonly first: string;
  readonly port: number;
  readonly ca: string;
  readonly prometheus: { token: string };
  readonly nobody: { token: string };
}

/** deploy/'s RBAC and Service, a Prometheus granted /metrics, a nobody, and a server with `access`. */
async function metricsWorld(
  t: ExecutionContext,
  access: (operator: KubeConfig) => MetricsAccess,
): Promise<MetricsWorld> {
  const cluster = await startSimCluster({ rbac: true });
  t.teardown(() => cluster.stop());
  const dir = await mkdtemp(join(tmpdir(), 'wmco-metrics-tls-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await apply(cluster, [
    ...deployObjects('02-clusterrole.yaml', 'ClusterRole'),
    ...deployObjects('03-clusterrolebinding.yaml', 'ClusterRoleBinding'),
    ...deployObjects('06-service.yaml', 'Service').filter((s) => s.metadata?.name !== 'windows-exporter'),
  ]);
  // What OpenShift's monitoring stack grants its Prometheus (nonResourceURLs /metrics, get).
  const prometheus = cluster.server.addServiceAccount('openshift-monitoring', 'prometheus-k8s');
  const nobody = cluster.server.addServiceAccount('default', 'nobody');
  await apply(cluster, [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'prometheus-metrics-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'openshift-monitoring' }],
    } as KubernetesObject,
  ]);
  const first = await writeSecret(cluster, dir);

  const operator = new KubeConfig();
  operator.loadFromString(cluster.server.kubeconfig(cluster.operator));
  const metrics = new OperatorMetrics({ defaultMetrics: false });
  metrics.csrDecisions.inc({ decision: 'approved' });
  const server = new SecureMetricsServer({
    host: '127.0.0.1',
    port: 0,
    certDir: dir,
    registry: metrics.registry,
    access: access(operator),
    logger: createLogger({ level: 'error', redactor: new Redactor() }),
    reloadMs: 200,
    tlsProfile: clusterTlsProfile(operator),
  });
  const port = await server.start();
  t.teardown(() => server.stop());
  return { cluster, dir, first, port, ca: cluster.serviceCa.caPem, prometheus, nobody };
}

test.serial(
  'metrics over HTTPS: no token 401, no grant 403, granted 200; the rotated certificate is served',
  async (t) => {
    const { cluster, dir, first, port, ca, prometheus, nobody } = await metricsWorld(t, kubeMetricsAccess);

    t.is((await get(port, ca)).code, 401, 'no token');
    t.is((await get(port, ca, 'not-a-token')).code, 401, 'a token the API server does not know');
    const denied = await get(port, ca, nobody.token);
    t.is(denied.code, 403, denied.body);
    const ok = await get(port, ca, prometheus.token);
    t.is(ok.code, 200, ok.body);
    t.regex(ok.body, /wmco_csr_decisions_total\{decision="approved"\} 1/);
    t.is(ok.cert.fingerprint256, new X509Certificate(Buffer.from(first, 'base64')).fingerprint256);

    // Rotation: the service CA issues a new certificate; the volume gets it; the server serves it.
    const kc = new KubeConfig();
    kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
    await kc.makeApiClient(CoreV1Api).deleteNamespacedSecret({ name: SECRET, namespace: OPERATOR_NAMESPACE });
    const second = await writeSecret(cluster, dir, first);
    const want = new X509Certificate(Buffer.from(second, 'base64')).fingerprint256;
    await until(
      'the new certificate served',
      async () => ((await get(port, ca, prometheus.token)).cert.fingerprint256 === want ? true : undefined),
      10_000,
    );
    t.pass();
  },
);

/** The reviews the API server answered since `since` (its request count then). */
function reviews(cluster: SimCluster, since: number): { tokens: number; access: number } {
  const posts = cluster.server.requests.since(since).filter((r) => r.method === 'POST');
  return {
    tokens: posts.filter((r) => r.path.endsWith('/tokenreviews')).length,
    access: posts.filter((r) => r.path.endsWith('/subjectaccessreviews')).length,
  };
}

test.serial(
  'metrics reviews are cached per token and rate-limited: a flood of new tokens gets 429 unasked',
  async (t) => {
    const limits = { ...DEFAULT_METRICS_ACCESS_LIMITS, reviewsPerSecond: 1, reviewBurst: 5 };
    // The limiter's clock stands still: the bucket never refills, however long the flood takes to serve.
    const frozen = Date.now();
    const w = await metricsWorld(
      t,
      (kc) => new CachedMetricsAccess(kubeMetricsAccess(kc), limits, () => frozen),
    );
    const before = w.cluster.server.requests.total;
    for (let i = 0; i < 10; i++) t.is((await get(w.port, w.ca, w.prometheus.token)).code, 200);
    t.deepEqual(reviews(w.cluster, before), { tokens: 1, access: 1 }, 'ten scrapes, one review of each');

    const flood = w.cluster.server.requests.total;
    const codes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => get(w.port, w.ca, `flood-${i}`).then((r) => r.code)),
    );
    const { tokens } = reviews(w.cluster, flood);
    t.true(tokens <= limits.reviewBurst, `${tokens} TokenReviews`);
    t.true(codes.every((c) => c === 401 || c === 429));
    t.true(codes.filter((c) => c === 429).length >= 50 - tokens, 'every request not reviewed got 429');
    t.is((await get(w.port, w.ca, w.prometheus.token)).code, 200, 'Prometheus, cached, is still served');
  },
);

/** A TLS handshake with the metrics port, the client offering at most `maxVersion`. */
function handshake(port: number, ca: string, maxVersion: SecureVersion): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: SERVER_NAME, maxVersion }, () => {
      const version = socket.getProtocol() ?? '?';
      socket.destroy();
      resolve(`accepted ${version}`);
    });
    socket.once('error', (err: Error) => resolve(`refused: ${err.message}`));
  });
}

/** Sets `spec.tlsSecurityProfile` of the APIServer `cluster`, as an admin would with `oc edit`. */
async function setTlsProfile(cluster: SimCluster, profile: unknown): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
  const api = kc.makeApiClient(CustomObjectsApi);
  const key = { group: 'config.openshift.io', version: 'v1', plural: 'apiservers', name: 'cluster' };
  const o = (await api.getClusterCustomObject(key)) as { spec?: Record<string, unknown> };
  await api.replaceClusterCustomObject({
    ...key,
    body: { ...o, spec: { ...o.spec, tlsSecurityProfile: profile } },
  });
}

test.serial(
  "the cluster's TLS security profile: Modern refuses a TLS 1.2 client, and a change applies without a restart",
  async (t) => {
    const { cluster, port, ca, prometheus } = await metricsWorld(t, kubeMetricsAccess);
    t.is(await handshake(port, ca, 'TLSv1.2'), 'accepted TLSv1.2', 'no profile: Intermediate');

    await setTlsProfile(cluster, { type: 'Modern', modern: {} });
    const refused = await until('Modern applied', async () => {
      const r = await handshake(port, ca, 'TLSv1.2');
      return r.startsWith('refused') ? r : undefined;
    });
    t.regex(refused, /refused/);
    t.is(await handshake(port, ca, 'TLSv1.3'), 'accepted TLSv1.3');
    t.is((await get(port, ca, prometheus.token)).code, 200, 'the same server still serves /metrics');

    await setTlsProfile(cluster, { type: 'Intermediate', intermediate: {} });
    t.is(
      await until('Intermediate applied again', async () => {
        const r = await handshake(port, ca, 'TLSv1.2');
        return r.startsWith('accepted') ? r : undefined;
      }),
      'accepted TLSv1.2',
    );
  },
);
