import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { V1Secret } from '@kubernetes/client-node';
import { Kubectl, ensureKubectl } from '@wmco/sim';
import { runWmco } from '../cli/in-process-cli.test-helper.js';
import { NS, apis, joinAll, testWorld, until, windowsNodes } from './world-fixture.js';

const KUBE_PROXY_LOG = 'C:\\var\\log\\kube-proxy\\kube-proxy.log';

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** A Secret's values, raw and base64, each line long enough to spot, with where each comes from. */
function valuesOf(name: string, data: Record<string, string>): { value: string; from: string }[] {
  return Object.entries(data).flatMap(([key, b64]) =>
    [b64, ...Buffer.from(b64, 'base64').toString('utf8').split('\n')]
      .map((v) => v.trim())
      .filter((v) => v.length >= 16)
      .map((value) => ({ value, from: `${name}/${key}` })),
  );
}

/** Every Secret value in the operator's namespace, `default` and the MCO's (the bootstrap token). */
async function secretValues(
  core: ReturnType<typeof apis>['core'],
): Promise<{ value: string; from: string }[]> {
  const lists = await Promise.all(
    [NS, 'default', 'openshift-machine-config-operator'].map((namespace) =>
      core.listNamespacedSecret({ namespace }),
    ),
  );
  // A ServiceAccount token Secret's `namespace` and `ca.crt` are public (its namespace, the cluster CA).
  const secretData = (s: V1Secret): Record<string, string> =>
    s.type === 'kubernetes.io/service-account-token' ? { token: s.data?.['token'] ?? '' } : (s.data ?? {});
  return lists
    .flatMap((l) => l.items)
    .flatMap((s) => valuesOf(`${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''}`, secretData(s)));
}

test('a node log through kubectl get --raw; wmco must-gather writes the documented layout and no Secret', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-LOGS' }]);
  const dir = await mkdtemp(join(tmpdir(), 'wmco-must-gather-'));
  t.teardown(async () => {
    await world.stop();
    await rm(dir, { recursive: true, force: true });
  });
  await joinAll(world);
  const host = world.hosts.hosts[0]!.sim.model;
  const node = (await windowsNodes(world))[0]?.metadata?.name ?? '';
  // The kubelet serves once the operator approved its serving CSR.
  await until('kubelet serving', () =>
    Promise.resolve(host.listeners.get('kubelet')?.state === 'serving' ? true : undefined),
  );

  // What an admin types (docs/troubleshooting.md), with the real kubectl.
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const kubectl = new Kubectl(world.adminKubeconfig);
  const log = await kubectl.run([
    'get',
    '--raw',
    `/api/v1/nodes/${node}/proxy/logs/kube-proxy/kube-proxy.log`,
  ]);
  t.is(log.code, 0, log.stderr);
  const onHost = host.files.read(KUBE_PROXY_LOG)?.toString() ?? '';
  t.regex(onHost, /"Starting kube-proxy: C:\\\\k\\\\kube-log-runner\.exe/);
  t.is(log.stdout, onHost);
  const listing = await kubectl.run(['get', '--raw', `/api/v1/nodes/${node}/proxy/logs/`]);
  t.regex(listing.stdout, /<a href="kube-proxy\/">kube-proxy\/<\/a>/);

  // Secrets the cluster holds must not leak into the folder.
  await apis(world).core.createNamespacedSecret({
    namespace: NS,
    body: { metadata: { name: 'must-not-leak' }, stringData: { token: 'leak-canary-6f1c0d2e9a7b4e33' } },
  });
  const secrets = await secretValues(apis(world).core);
  t.true(secrets.some((s) => s.value === 'leak-canary-6f1c0d2e9a7b4e33'));

  const out = join(dir, 'full');
  const run = await runWmco([
    'must-gather',
    '--dest-dir',
    out,
    '--kubeconfig',
    world.adminKubeconfig,
    '-n',
    NS,
  ]);
  t.is(run.error, undefined, run.out);
  const files = await filesUnder(out);
  for (const f of [
    'gather.log',
    `namespaces/${NS}/core/configmaps/windows-instances.yaml`,
    `namespaces/${NS}/core/configmaps/windows-instances-status.yaml`,
    `namespaces/${NS}/core/configmaps/windows-services-0.1.0.yaml`,
    `namespaces/${NS}/core/events.yaml`,
    'namespaces/default/core/events.yaml',
    `cluster-scoped-resources/core/nodes/${node}.yaml`,
    `nodes/${node}/logs/kube-proxy/kube-proxy.log`,
    `nodes/${node}/logs/kubelet/kubelet.log`,
    `nodes/${node}/logs/containerd/containerd.log`,
    `nodes/${node}/logs/hybrid-overlay/hybrid-overlay.log`,
  ])
    t.true(files.includes(f), `${f} in ${files.join(', ')}`);
  t.true(
    files.some((f) =>
      f.startsWith('cluster-scoped-resources/certificates.k8s.io/certificatesigningrequests/'),
    ),
  );
  t.true(
    files.some((f) => f.startsWith(`namespaces/${NS}/pods/`)),
    'pod logs or the reason they are missing',
  );
  t.is(await readFile(join(out, `nodes/${node}/logs/kube-proxy/kube-proxy.log`), 'utf8'), onHost);
  t.regex(
    await readFile(join(out, 'namespaces/default/core/events.yaml'), 'utf8'),
    new RegExp(`name: ${node}`),
  );
  for (const f of files) {
    const text = await readFile(join(out, f), 'utf8');
    for (const v of secrets) t.false(text.includes(v.value), `${f} holds a value of Secret ${v.from}`);
  }

  // The per-file cap keeps the end of each log.
  const small = join(dir, 'small');
  const capped = await runWmco([
    'must-gather',
    '--dest-dir',
    small,
    '--kubeconfig',
    world.adminKubeconfig,
    '-n',
    NS,
    '--max-log-bytes',
    '40',
  ]);
  t.is(capped.error, undefined, capped.out);
  t.is(
    await readFile(join(small, `nodes/${node}/logs/kube-proxy/kube-proxy.log`), 'utf8'),
    onHost.slice(-40),
  );
  t.regex(
    await readFile(join(small, 'gather.log'), 'utf8'),
    /kube-proxy\/kube-proxy\.log: kept the last 40 of \d+ bytes/,
  );
});
