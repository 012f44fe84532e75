import test from 'ava';
import { syncCsv } from './csv-sync.js';
import {
  boundGrants,
  CLUSTER,
  csvGrants,
  foldForOlm,
  OPERATOR_NAMESPACE,
  wildcardGrants,
} from './rbac-grants.js';
import { chartDocs, csvObject, csvText, deployDocs, deploySourceDocs, OPERATOR_SA } from './repo-files.js';

const sorted = (s: ReadonlySet<string>): string[] => [...s].sort();
const deployGrants = (): Set<string> => boundGrants(deployDocs(), OPERATOR_SA);

test('the chart grants exactly what deploy/ grants', (t) => {
  t.deepEqual(sorted(boundGrants(chartDocs(), OPERATOR_SA)), sorted(deployGrants()));
});

test('the chart follows its release namespace and private key Secret name', (t) => {
  const grants = boundGrants(chartDocs({ namespace: 'wmco', values: { privateKeySecretName: 'my-key' } }), {
    name: OPERATOR_SA.name,
    namespace: 'wmco',
  });
  const expected = sorted(deployGrants()).map((g) =>
    g === `${OPERATOR_NAMESPACE}||secrets|get|cloud-private-key`
      ? `${OPERATOR_NAMESPACE}||secrets|get|my-key`
      : g,
  );
  t.true(grants.has(`${OPERATOR_NAMESPACE}||secrets|watch|my-key`));
  t.false([...grants].some((g) => g.includes('cloud-private-key')));
  t.is(grants.size, expected.length);
});

test('the CSV grants what deploy/ grants, with only the other namespaces Roles made cluster-wide', (t) => {
  const csv = csvGrants(csvObject(), OPERATOR_SA.name);
  t.deepEqual(sorted(csv), sorted(foldForOlm(deployGrants())));
  // What the fold widens, spelled out (ADR 0003, ADR 0019): reading Secrets and one ConfigMap by name
  // (the cluster's trusted CA bundle), watching
  // the pull secret, and for Windows Machines: creating any Secret and reading/replacing/watching the ones
  // named windows-user-data, Machines (list, watch, delete), MachineSets (get, list,
  // watch) and events in every namespace; and watching the node-bootstrapper token (the facts cache, ADR 0022).
  const widened = sorted(csv).filter((g) => !deployGrants().has(g));
  t.deepEqual(widened, [
    '*|machine.openshift.io|machinesets|get|*',
    '*|machine.openshift.io|machinesets|list|*',
    '*|machine.openshift.io|machinesets|watch|*',
    '*|machine.openshift.io|machines|delete|*',
    '*|machine.openshift.io|machines|list|*',
    '*|machine.openshift.io|machines|watch|*',
    '*||configmaps|get|user-ca-bundle',
    '*||events|create|*',
    '*||events|patch|*',
    '*||secrets|create|*',
    '*||secrets|get|node-bootstrapper-token',
    '*||secrets|get|pull-secret',
    '*||secrets|get|windows-user-data',
    '*||secrets|list|node-bootstrapper-token',
    '*||secrets|list|pull-secret',
    '*||secrets|list|windows-user-data',
    '*||secrets|update|windows-user-data',
    '*||secrets|watch|node-bootstrapper-token',
    '*||secrets|watch|pull-secret',
    '*||secrets|watch|windows-user-data',
  ]);
});

test('cloud credentials: only the minted Secret in the operator namespace; nothing in kube-system', (t) => {
  const grants = [...deployGrants()];
  t.deepEqual(
    grants.filter((g) => g.startsWith('kube-system|')),
    [],
    'the root Secrets are read only with --cloud-credentials=root, which adds its own Role',
  );
  t.true(
    grants.includes(`${OPERATOR_NAMESPACE}||secrets|get|windows-machine-config-operator-cloud-credentials`),
  );
  const csv = csvGrants(csvObject(), OPERATOR_SA.name);
  t.false([...csv].some((g) => /aws-creds|azure-credentials|gcp-credentials/.test(g)));
  // OLM installs no CredentialsRequest (not among the kinds a bundle may carry): the CSV tells the admin
  // to apply deploy/'s, and the operator is not allowed to create one (a request it wrote could ask the
  // cloud credential operator for any permission).
  t.regex(csvText(), /oc apply -f \S+\/deploy\/09-credentialsrequests\.yaml/);
  t.false([...deployGrants()].some((g) => g.includes('credentialsrequests')));
});

test('the committed CSV is what sync-bundle generates from deploy/', (t) => {
  t.is(syncCsv(csvText(), deploySourceDocs()), csvText(), 'run: pnpm --filter @wmco/packaging sync-bundle');
});

test('least privilege: no wildcards, no cluster-wide Secret access, no pod deletion', (t) => {
  const grants = deployGrants();
  t.deepEqual(wildcardGrants(grants), []);
  t.deepEqual(
    [...grants].filter((g) => g.startsWith(`${CLUSTER}||secrets|`)),
    [],
  );
  t.false(grants.has(`${CLUSTER}||pods|delete|*`));
  const secretGrants = [...grants].filter((g) => g.split('|')[2] === 'secrets');
  // The only Secret grants without a name are `create` (Kubernetes authorizes a create before the object
  // has a name), and only where windows-user-data lives (ADR 0019).
  t.deepEqual(
    secretGrants.filter((g) => g.endsWith('|*')).sort(),
    ['openshift-cluster-api||secrets|create|*', 'openshift-machine-api||secrets|create|*'],
    'every other Secret grant names its Secret',
  );
  // Secrets are only read, except windows-user-data, which the operator creates and replaces (never
  // patches or deletes) in those two namespaces.
  t.deepEqual(
    secretGrants.filter((g) => !/\|(get|list|watch)\|/.test(g)).sort(),
    [
      'openshift-cluster-api||secrets|create|*',
      'openshift-cluster-api||secrets|update|windows-user-data',
      'openshift-machine-api||secrets|create|*',
      'openshift-machine-api||secrets|update|windows-user-data',
    ],
    'Secrets are only read, but for windows-user-data',
  );
});

test('Windows Machines: list, watch and delete Machines and read and watch MachineSets in openshift-machine-api only', (t) => {
  const grants = [...deployGrants()].filter((g) => g.split('|')[1] === 'machine.openshift.io');
  t.deepEqual(grants.sort(), [
    'openshift-machine-api|machine.openshift.io|machinesets|get|*',
    'openshift-machine-api|machine.openshift.io|machinesets|list|*',
    'openshift-machine-api|machine.openshift.io|machinesets|watch|*',
    'openshift-machine-api|machine.openshift.io|machines|delete|*',
    'openshift-machine-api|machine.openshift.io|machines|list|*',
    'openshift-machine-api|machine.openshift.io|machines|watch|*',
  ]);
  t.true(deployGrants().has('*||namespaces|get|openshift-cluster-api'));
  t.deepEqual([...deployGrants()].filter((g) => g.split('|')[2] === 'namespaces').sort(), [
    '*||namespaces|get|openshift-cluster-api',
    // the operator's own Namespace, for its monitoring label (metrics, ADR 0021)
    '*||namespaces|get|openshift-windows-machine-config-operator',
    '*||namespaces|list|openshift-windows-machine-config-operator',
    '*||namespaces|watch|openshift-windows-machine-config-operator',
  ]);
});

test('CSR approval: read CSRs, update approval, approve only for the two kubelet signers', (t) => {
  const grants = [...deployGrants()].filter((g) => g.split('|')[1] === 'certificates.k8s.io');
  t.deepEqual(grants.sort(), [
    '*|certificates.k8s.io|certificatesigningrequests/approval|update|*',
    '*|certificates.k8s.io|certificatesigningrequests|get|*',
    '*|certificates.k8s.io|certificatesigningrequests|list|*',
    '*|certificates.k8s.io|certificatesigningrequests|watch|*',
    '*|certificates.k8s.io|signers|approve|kubernetes.io/kube-apiserver-client-kubelet',
    '*|certificates.k8s.io|signers|approve|kubernetes.io/kubelet-serving',
  ]);
});

test('a binding to an undefined role is an error naming it', (t) => {
  const docs = deployDocs().filter((d) => d.object['kind'] !== 'ClusterRole');
  t.throws(() => boundGrants(docs, OPERATOR_SA), {
    message: /ClusterRole windows-machine-config-operator, which is not defined/,
  });
});
