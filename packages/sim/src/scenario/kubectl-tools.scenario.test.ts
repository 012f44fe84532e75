import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { createCsr } from '../apiserver/x509.js';
import { csrYaml } from './kubectl-fixtures.js';
import { ensureKubectl, Kubectl } from './kubectl-runner.js';
import { waitFor } from './scenario-env.js';

// What a new user tries first with Debian's kubectl against the simulated API server: server-side dry run
// and diff of deploy/, the real columns of `get`, `describe` listing events, and a service-account token
// Secret used for `auth whoami` / `auth can-i` under deploy/'s RBAC.

const DEPLOY = fileURLToPath(new URL('../../../../deploy', import.meta.url));
const OP_NS = 'openshift-windows-machine-config-operator';
const OP_SA = 'windows-machine-config-operator';
let sim: SimCluster;
let k: Kubectl;
let dir: string;
const missing = ensureKubectl();

test.before(async () => {
  if (missing) throw new Error(missing);
  sim = await startSimCluster({ platform: 'None' });
  dir = mkdtempSync(join(tmpdir(), 'wmco-kc-tools-'));
  await sim.server.writeKubeconfig(join(dir, 'admin.kubeconfig'));
  k = new Kubectl(join(dir, 'admin.kubeconfig'));
  // deploy/ has a Role in openshift-cluster-api (ADR 0019), which the simulated OpenShift cluster seeds.
});

test.after.always(async () => {
  await sim?.stop();
});

test.serial('apply --dry-run=server -f deploy/: every object validated, nothing stored', async (t) => {
  const rv = sim.server.store.currentRv;
  const r = await k.run(['apply', '--dry-run=server', '-f', DEPLOY]);
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  t.true(lines.length >= 8);
  for (const l of lines) t.regex(l, / \(server dry run\)$/);
  t.regex(
    r.stdout,
    /^clusterrole\.rbac\.authorization\.k8s\.io\/windows-machine-config-operator created \(server dry run\)$/m,
  );
  t.regex(r.stdout, /^deployment\.apps\/windows-machine-config-operator created \(server dry run\)$/m);
  t.is(sim.server.store.currentRv, rv, 'no write, no new resourceVersion');
  const get = await k.run(['get', 'clusterrole', OP_SA]);
  t.regex(get.stderr, /NotFound/);
  // The project's own check (docs/install.md) now passes against the simulated server.
  const check = await runScript(
    join(DEPLOY, '../scripts/kubectl-apply-check.sh'),
    join(dir, 'admin.kubeconfig'),
  );
  t.is(check.code, 0, check.out);
  t.regex(check.out, /every file of deploy\/ applied cleanly \(--dry-run=server\)/);
  t.is(sim.server.store.currentRv, rv);
});

function runScript(script: string, kubeconfig: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script, '--kubeconfig', kubeconfig], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout + stderr });
    });
  });
}

test.serial(
  'diff -f deploy/: everything new, then nothing after apply, then exactly the changed field',
  async (t) => {
    const before = await k.run(['diff', '-f', DEPLOY]);
    t.is(before.code, 1, before.stderr);
    t.regex(before.stdout, /^\+kind: ClusterRole$/m);
    t.is((await k.run(['apply', '-f', DEPLOY])).code, 0);
    const same = await k.run(['diff', '-f', DEPLOY]);
    t.is(same.code, 0, same.stderr);
    t.is(same.stdout, '');
    const changed = join(dir, 'deployment.yaml');
    writeFileSync(
      changed,
      readFileSync(join(DEPLOY, '07-deployment.yaml'), 'utf8').replace('replicas: 1', 'replicas: 2'),
    );
    const d = await k.run(['diff', '-f', changed]);
    t.is(d.code, 1, d.stderr);
    t.regex(d.stdout, /^- {2}replicas: 1$/m);
    t.regex(d.stdout, /^\+ {2}replicas: 2$/m);
    t.is((await k.run(['get', 'deploy', '-n', OP_NS, OP_SA, '-o', 'jsonpath={.spec.replicas}'])).stdout, '1');
    // A custom resource takes the other path (apply patch, no strategic merge).
    const ms = (replicas: number): string =>
      `apiVersion: machine.openshift.io/v1beta1\nkind: MachineSet\nmetadata: {name: win, namespace: openshift-machine-api}\nspec: {replicas: ${replicas}, selector: {matchLabels: {a: b}}}\n`;
    writeFileSync(join(dir, 'ms.yaml'), ms(1));
    t.is((await k.run(['apply', '-f', join(dir, 'ms.yaml')])).code, 0);
    writeFileSync(join(dir, 'ms.yaml'), ms(3));
    const crDiff = await k.run(['diff', '-f', join(dir, 'ms.yaml')]);
    t.is(crDiff.code, 1, crDiff.stderr);
    t.regex(crDiff.stdout, /^- {2}replicas: 1$/m);
    t.regex(crDiff.stdout, /^\+ {2}replicas: 3$/m);
  },
);

test.serial('delete --dry-run=server answers as a delete and keeps the object', async (t) => {
  const r = await k.run(['delete', 'deploy', OP_SA, '-n', OP_NS, '--dry-run=server']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /deployment\.apps "windows-machine-config-operator" deleted \(server dry run\)/);
  t.is(
    (await k.run(['get', 'deploy', OP_SA, '-n', OP_NS, '-o', 'name'])).stdout.trim(),
    `deployment.apps/${OP_SA}`,
  );
});

function eventYaml(name: string, involved: string, reason: string, message: string): string {
  return [
    'apiVersion: v1',
    'kind: Event',
    `metadata: {name: ${name}, namespace: default}`,
    `involvedObject: ${involved}`,
    `reason: ${reason}`,
    'type: Warning',
    `message: "${message}"`,
    `firstTimestamp: "${new Date(Date.now() - 600_000).toISOString()}"`,
    `lastTimestamp: "${new Date(Date.now() - 5_000).toISOString()}"`,
    'count: 2',
    'source: {component: windows-machine-config-operator}',
    '',
  ].join('\n');
}

test.serial(
  "get events prints LAST SEEN, TYPE, REASON, OBJECT, MESSAGE; describe lists an object's events",
  async (t) => {
    const uid = (await k.run(['get', 'node', 'master-0', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const mine = `{kind: Node, name: master-0, uid: ${uid}}`;
    const other = `{kind: Node, name: master-0, uid: 00000000-0000-0000-0000-000000000000}`;
    t.is(
      (await k.run(['apply', '-f', '-'], eventYaml('n1', mine, 'NodeRebooted', 'rebooted twice'))).code,
      0,
    );
    t.is(
      (await k.run(['apply', '-f', '-'], eventYaml('n2', other, 'OldNode', 'an earlier node of that name')))
        .code,
      0,
    );
    const ev = await k.run(['get', 'events', '-A']);
    t.regex(ev.stdout, /^NAMESPACE\s+LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    t.regex(ev.stdout, /^default\s+\d+s\s+Warning\s+NodeRebooted\s+node\/master-0\s+rebooted twice$/m);
    const wide = await k.run(['get', 'events', '-n', 'default', '-o', 'wide']);
    t.regex(
      wide.stdout,
      /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE\s+FIRST SEEN\s+COUNT\s+NAME$/m,
    );
    t.regex(wide.stdout, /\s10m\s+2\s+n1$/m);
    const filtered = await k.run([
      'get',
      'events',
      '-n',
      'default',
      '--field-selector',
      `involvedObject.uid=${uid}`,
      '-o',
      'name',
    ]);
    t.is(filtered.stdout.trim(), 'event/n1');
    // describe selects events by involvedObject name, namespace, kind and uid, as the real server filters them.
    const d = await k.run(['describe', 'node', 'master-0']);
    t.is(d.code, 0, d.stderr);
    t.regex(d.stdout, /^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/m);
    t.regex(
      d.stdout,
      /^\s+Warning\s+NodeRebooted\s+\d+s \(x2 over 10m\)\s+windows-machine-config-operator\s+rebooted twice$/m,
    );
    t.notRegex(d.stdout, /OldNode/);
    // `kubectl events --for` selects by involvedObject kind, apiVersion and name.
    const withVersion = `{apiVersion: v1, kind: Node, name: master-0, uid: ${uid}}`;
    await k.run(['apply', '-f', '-'], eventYaml('n3', withVersion, 'Versioned', 'has an apiVersion'));
    const forNode = await k.run(['events', '-n', 'default', '--for', 'node/master-0']);
    t.is(forNode.code, 0, forNode.stderr);
    t.regex(forNode.stdout, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    t.regex(forNode.stdout, /Versioned\s+Node\/master-0\s+has an apiVersion/);
    t.notRegex(forNode.stdout, /NodeRebooted/);
  },
);

test.serial(
  'get prints the real columns for leases, CSRs, nodes -o wide, deployments, services, RBAC and CRDs',
  async (t) => {
    const get = async (...args: string[]): Promise<string> => (await k.run(['get', ...args])).stdout;
    t.regex(
      await get('leases', '-n', 'kube-node-lease'),
      /^NAME\s+HOLDER\s+AGE\nmaster-0\s+master-0\s+\d+s$/m,
    );
    t.regex(
      await get('nodes', '-o', 'wide'),
      /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME$/m,
    );
    t.regex(
      await get('deploy', '-n', OP_NS),
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nwindows-machine-config-operator\s+0\/1\s+0\s+0\s+\d+s$/m,
    );
    t.regex(await get('svc', '-n', OP_NS), /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/m);
    t.regex(
      await get('clusterrolebinding', OP_SA, '-o', 'wide'),
      /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/m,
    );
    t.regex(
      await get('clusterrole', OP_SA),
      /^NAME\s+CREATED AT\nwindows-machine-config-operator\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m,
    );
    t.regex(await get('crd', 'machines.machine.openshift.io'), /^NAME\s+CREATED AT$/m);
    t.regex(await get('sa', '-n', OP_NS), /^NAME\s+SECRETS\s+AGE$/m);
    const { csrPem } = await createCsr({ commonName: 'system:node:tools', organizations: ['system:nodes'] });
    t.is((await k.run(['apply', '-f', '-'], csrYaml('tools-csr', csrPem))).code, 0);
    t.regex(
      await get('csr'),
      /^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION\ntools-csr\s+\d+s\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+admin\s+<none>\s+Pending$/m,
    );
  },
);

test.serial(
  'a service-account token Secret is populated, and its token works for auth whoami and auth can-i under deploy/ RBAC',
  async (t) => {
    const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: operator-token\n  namespace: ${OP_NS}\n  annotations: {kubernetes.io/service-account.name: ${OP_SA}}\ntype: kubernetes.io/service-account-token\n`;
    t.is((await k.run(['apply', '-f', '-'], secret)).code, 0);
    const token = await waitFor('token', async () => {
      const r = await k.run(['get', 'secret', 'operator-token', '-n', OP_NS, '-o', 'jsonpath={.data.token}']);
      return r.stdout === '' ? undefined : Buffer.from(r.stdout, 'base64').toString();
    });
    const ca = (
      await k.run(['get', 'secret', 'operator-token', '-n', OP_NS, '-o', 'jsonpath={.data.ca\\.crt}'])
    ).stdout;
    t.is(Buffer.from(ca, 'base64').toString(), sim.server.caPem);
    const file = join(dir, 'sa.kubeconfig');
    writeFileSync(file, sim.server.kubeconfig({ user: { name: OP_SA, groups: [] }, token }));
    const op = new Kubectl(file);
    sim.server.rbac = true;
    try {
      t.regex(
        (await op.run(['auth', 'whoami'])).stdout,
        new RegExp(`Username\\s+system:serviceaccount:${OP_NS}:${OP_SA}`),
      );
      const yes = await op.run(['auth', 'can-i', 'patch', 'nodes']);
      t.is(yes.stdout.trim(), 'yes');
      t.is(yes.code, 0);
      const approve = ['auth', 'can-i', 'update', 'certificatesigningrequests', '--subresource=approval'];
      t.is((await op.run(approve)).stdout.trim(), 'yes');
      t.is((await op.run(['auth', 'can-i', 'update', 'certificatesigningrequests'])).stdout.trim(), 'no');
      const no = await op.run(['auth', 'can-i', 'delete', 'namespaces']);
      t.is(no.stdout.trim(), 'no');
      t.is(no.code, 1);
      t.is((await op.run(['get', 'nodes', '-o', 'name'])).code, 0);
    } finally {
      sim.server.rbac = false;
    }
  },
);
