import test from 'ava';
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificatesV1Api, CoreV1Api } from '@kubernetes/client-node';
import { createNamespacedConfigMap, createPullSecret } from './existing-objects.test-helper.js';
import {
  auditLines,
  main,
  outsideForTest,
  startOutside,
  stopOutside,
  wmcoSim,
} from './outside-cluster.test-helper.js';

// Attach mode against an outside cluster: a plain Kubernetes cluster (simulated API server, RBAC
// enforced, no OpenShift) in its own process, known to `wmco sim --cluster` only by its kubeconfig.

/** The `msg` of each line of an operator log file (JSON lines). */
function logMessages(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { msg?: string }).msg ?? '');
}

const OPERATOR_SA =
  'system:serviceaccount:openshift-windows-machine-config-operator:windows-machine-config-operator';

test.serial(
  'wmco sim --cluster --seed: hosts join a plain cluster through its signer, the operator as deploy/ grants',
  async (t) => {
    const o = await outsideForTest(t);
    const core = o.kc.makeApiClient(CoreV1Api);
    // Something the cluster already has: --seed must keep it as it is.
    const mine = {
      '.dockerconfigjson': Buffer.from('{"auths":{"mine.example":{"auth":"eDp5"}}}').toString('base64'),
    };
    await createPullSecret(core, mine);

    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '2', '--seed', '--timeout', '150']);
    t.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
    t.regex(r.stdout, /attached to https:\/\/127\.0\.0\.1:\d+ \(no API server started\)/);
    t.regex(
      r.stdout,
      /seed: kept 2 that the cluster already had \(Namespace\/openshift-config, Secret\/openshift-config\/pull-secret\)/,
    );
    t.regex(r.stdout, /hybrid-overlay: stand-in on/);
    t.regex(r.stdout, /token from secret windows-machine-config-operator-sim-token/);
    // The operator's log is kept in a file, named at the start and at the end.
    const named = [...r.stdout.matchAll(/^operator log: (\S+)$/gm)].map((m) => m[1] ?? '');
    t.is(named.length, 2);
    t.is(named[0], named[1]);
    t.true(r.stdout.startsWith(`operator log: ${named[0] ?? ''}\n`));
    const log = logMessages(named[0] ?? '');
    t.true(log.includes('became leader'));
    t.true(log.includes('approved kubelet CSR'));

    // Outside view: two Windows Nodes, Ready, each with a hybrid-overlay subnet.
    const nodes = (await core.listNode({ labelSelector: 'kubernetes.io/os=windows' })).items;
    t.is(nodes.length, 2);
    for (const n of nodes) {
      t.is(n.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True', n.metadata?.name);
      t.truthy(n.metadata?.annotations?.['k8s.ovn.org/hybrid-overlay-node-subnet']);
    }
    // The kubelets' certificates were issued by the outside cluster's CA (its CSR signer).
    const ca = new X509Certificate(Buffer.from(o.kc.getCurrentCluster()?.caData ?? '', 'base64'));
    const csrs = (await o.kc.makeApiClient(CertificatesV1Api).listCertificateSigningRequest()).items;
    const issued = csrs.filter((c) => c.status?.certificate !== undefined);
    t.true(issued.length >= 4, 'a client and a serving certificate per node');
    for (const c of issued) {
      const cert = new X509Certificate(Buffer.from(c.status?.certificate ?? '', 'base64'));
      t.true(cert.verify(ca.publicKey), c.metadata?.name);
    }
    // The existing pull secret is untouched.
    const pull = await core.readNamespacedSecret({ name: 'pull-secret', namespace: 'openshift-config' });
    t.deepEqual(pull.data, mine);

    // The operator's requests: made as its ServiceAccount, every one allowed by deploy/'s RBAC; every
    // CSR approval was its.
    const audit = auditLines(o);
    const operator = audit.filter((a) => a.user === OPERATOR_SA);
    t.true(operator.length > 0);
    t.deepEqual(
      operator.filter((a) => !a.allowed),
      [],
    );
    const approvals = audit.filter(
      (a) => a.resource === 'certificates.k8s.io/certificatesigningrequests/approval',
    );
    t.true(approvals.length >= 4);
    t.deepEqual([...new Set(approvals.map((a) => a.user))], [OPERATOR_SA]);
  },
);

test.serial(
  'wmco sim --cluster --seed --bootstrap-group: kubelets bootstrap with a token in that group',
  async (t) => {
    const o = await outsideForTest(t);
    const group = 'system:bootstrappers:windows';
    const logOut = join(o.dir, 'logs', 'wmco-operator.log');
    const r = await wmcoSim([
      '--cluster',
      o.kubeconfig,
      '--hosts',
      '1',
      '--seed',
      '--bootstrap-group',
      group,
      '--log-out',
      logOut,
    ]);
    t.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
    t.regex(r.stdout, new RegExp(`^operator log: ${logOut}$`, 'm'));
    t.true(logMessages(logOut).includes('approved kubelet CSR'));
    t.regex(r.stdout, /Secret\/kube-system\/bootstrap-token-[a-z0-9]{6}/);
    t.notRegex(r.stdout, /ServiceAccount\/openshift-machine-config-operator\/node-bootstrapper/);
    const csrs = (await o.kc.makeApiClient(CertificatesV1Api).listCertificateSigningRequest()).items;
    const client = csrs.filter((c) => c.spec.signerName === 'kubernetes.io/kube-apiserver-client-kubelet');
    t.true(client.length >= 1);
    for (const c of client) {
      t.regex(c.spec.username ?? '', /^system:bootstrap:[a-z0-9]{6}$/);
      t.true(c.spec.groups?.includes(group));
      t.truthy(c.status?.certificate);
    }
  },
);

test.serial(
  'wmco sim --cluster without --seed on a cluster lacking OpenShift says what is missing and changes nothing',
  async (t) => {
    const o = await outsideForTest(t);
    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '1', '--timeout', '30']);
    t.not(r.code, 0);
    t.regex(
      r.stderr,
      /the cluster lacks what the operator reads from OpenShift: CRD infrastructures\.config\.openshift\.io,/,
    );
    t.regex(r.stderr, /CRD controllerconfigs\.machineconfiguration\.openshift\.io/);
    t.regex(r.stderr, /secret openshift-machine-config-operator\/node-bootstrapper-token/);
    t.regex(r.stderr, /add --seed/);
    const namespaces = (await o.kc.makeApiClient(CoreV1Api).listNamespace()).items.map(
      (n) => n.metadata?.name,
    );
    t.false(namespaces.includes('openshift-windows-machine-config-operator'));
  },
);

test.serial('wmco sim --cluster names an unreadable kubeconfig and an unreachable server', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-attach-bad-'));
  const missing = await wmcoSim(['--cluster', join(dir, 'nope'), '--hosts', '1']);
  t.not(missing.code, 0);
  t.regex(missing.stderr, /--cluster .*nope: cannot read the kubeconfig/);
  const o = await startOutside();
  await stopOutside(o);
  const gone = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '1']);
  t.not(gone.code, 0);
  t.regex(gone.stderr, /cannot reach the API server at https:\/\/127\.0\.0\.1:\d+/);
});

test.serial(
  'wmco sim --cluster never replaces a windows-instances ConfigMap that is not its own',
  async (t) => {
    const o = await outsideForTest(t);
    const core = o.kc.makeApiClient(CoreV1Api);
    const namespace = 'openshift-windows-machine-config-operator';
    const data = { '10.0.0.9': 'username=Administrator' };
    await createNamespacedConfigMap(core, namespace, 'windows-instances', data);
    const r = await wmcoSim(['--cluster', o.kubeconfig, '--hosts', '1', '--seed']);
    t.not(r.code, 0);
    t.regex(r.stderr, /windows-instances exists and is not attach mode's .* delete it first/);
    t.deepEqual((await core.readNamespacedConfigMap({ name: 'windows-instances', namespace })).data, data);
  },
);

test('attach-only options are refused without --cluster, and --keep with it', async (t) => {
  const seed = await wmcoSim(['--hosts', '1', '--seed']);
  t.not(seed.code, 0);
  t.regex(seed.stderr, /--seed, --bootstrap-group and --cleanup apply only with --cluster/);
  // --log-out names the operator's log file wherever an operator runs; the cluster alone runs none.
  const logOut = await wmcoSim(['--log-out', '/tmp/x.log']);
  t.not(logOut.code, 0);
  t.regex(logOut.stderr, /--log-out applies with --cluster, --hosts, --hosts-file or --machinesets/);
  const keep = await wmcoSim(['--cluster', '/nonexistent', '--hosts', '1', '--keep']);
  t.not(keep.code, 0);
  t.regex(keep.stderr, /--cluster starts no API server: --keep and --kubeconfig-out do not apply/);
});

test.serial(
  'wmco sim --cluster without --seed joins a cluster that has the OpenShift objects (`wmco sim --keep`)',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wmco-attach-ocp-'));
    const kubeconfig = join(dir, 'admin.kubeconfig');
    const proc = spawn(process.execPath, [main, 'sim', '--keep', '--kubeconfig-out', kubeconfig], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    t.teardown(async () => {
      proc.kill('SIGTERM');
      await exited;
    });
    await new Promise<void>((resolve) => {
      proc.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('running; stop with SIGTERM')) resolve();
      });
    });
    const r = await wmcoSim(['--cluster', kubeconfig, '--hosts', '1']);
    t.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
    t.notRegex(r.stdout, /seed:/);
    // The simulated OpenShift has the namespace and both ServiceAccounts (the operator's, the cloud node manager's).
    t.regex(r.stdout, /deploy\/ RBAC: created \d+, kept 3 existing/);
    t.regex(r.stdout, /Ready \(win-byoh-01\)/);
  },
);
