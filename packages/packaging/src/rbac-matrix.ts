import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import { createClusterApiNamespace, type StartCluster } from './apply-manifests.js';
import { boundGrants, CLUSTER, OPERATOR_NAMESPACE } from './rbac-grants.js';
import { deployDocs, OPERATOR_NS, OPERATOR_SA } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

const run = promisify(execFile);

/** The resourceAttributes of a SelfSubjectAccessReview. */
export interface ResourceAttributes {
  readonly namespace: string;
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/**
 * The access review for one flattened grant (`scope|group|resource|verb|name`). Sent as a
 * SelfSubjectAccessReview rather than with `kubectl auth can-i`, which cannot ask about resources that
 * are not in discovery (`signers`, and SCCs outside OpenShift).
 */
export function accessReview(grant: string): ResourceAttributes {
  const parts = grant.split('|');
  const [scope, group, resource, verb, name] = [0, 1, 2, 3, 4].map((i) => parts[i] ?? '') as [
    string,
    string,
    string,
    string,
    string,
  ];
  const [res, subresource] = [0, 1].map((i) => resource.split('/')[i] ?? '') as [string, string];
  const namespace = scope === CLUSTER ? '' : scope === OPERATOR_NAMESPACE ? OPERATOR_NS : scope;
  return { namespace, verb, group, resource: res, subresource, name: name === '*' ? '' : name };
}

/** Things the operator must NOT be able to do, as grants. */
export const FORBIDDEN: readonly string[] = [
  '*||secrets|list|*',
  'openshift-config||secrets|get|other',
  'default||secrets|create|*',
  'default||secrets|get|windows-user-data',
  '*||pods|delete|*',
  '*|machine.openshift.io|machinesets|delete|*',
  '*|certificates.k8s.io|signers|approve|kubernetes.io/kube-apiserver-client',
  '<operator-namespace>|coordination.k8s.io|leases|update|other',
  '*|rbac.authorization.k8s.io|clusterrolebindings|create|*',
  // Grants the operator had before its API calls were audited, and does not use today.
  '*||nodes|update|*',
  '*||namespaces|list|*',
  // Events: in the operator's namespace, openshift-machine-api and `default` (cluster-scoped objects) only.
  'kube-system||events|create|*',
  // Windows Machines (ADR 0019): windows-user-data only, never patched or deleted; Machines deleted only
  // in openshift-machine-api; MachineSets never written; no Namespace but openshift-cluster-api read.
  'openshift-machine-api||secrets|get|other',
  'openshift-machine-api||secrets|update|other',
  'openshift-machine-api||secrets|patch|windows-user-data',
  'openshift-machine-api||secrets|delete|windows-user-data',
  'openshift-cluster-api||secrets|list|*',
  'default|machine.openshift.io|machines|delete|*',
  'openshift-machine-api|machine.openshift.io|machinesets|update|*',
  'openshift-machine-api|machine.openshift.io|machinesets/scale|patch|*',
  '*||namespaces|get|default',
];

export interface AccessCheck {
  readonly grant: string;
  readonly allowed: boolean;
}

/** Every grant of deploy/ must be allowed, and everything in FORBIDDEN denied. */
export function accessChecks(): AccessCheck[] {
  const allowed = [...boundGrants(deployDocs(), OPERATOR_SA)]
    .sort()
    .map((grant) => ({ grant, allowed: true }));
  return [...allowed, ...FORBIDDEN.map((grant) => ({ grant, allowed: false }))];
}

async function allowed(kubeconfig: string, attributes: ResourceAttributes): Promise<boolean> {
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: attributes },
  };
  const dir = await mkdtemp(join(tmpdir(), 'wmco-ssar-'));
  try {
    await writeFile(join(dir, 'ssar.json'), JSON.stringify(review));
    const { stdout } = await run('kubectl', [
      '--kubeconfig',
      kubeconfig,
      'create',
      '-f',
      join(dir, 'ssar.json'),
      '-o',
      'json',
    ]);
    return (JSON.parse(stdout) as { status?: { allowed?: boolean } }).status?.allowed === true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The RBAC objects of deploy/, applied by an admin, answer every access review of the operator's
 * ServiceAccount as intended (the cluster must enforce RBAC and provide the operator's kubeconfig).
 */
export function rbacMatrixTest(startCluster: StartCluster): (t: ExecutionContext) => Promise<void> {
  return async (t) => {
    const cluster = await startCluster();
    t.teardown(() => cluster.stop());
    const operator = cluster.operatorKubeconfigPath;
    if (operator === undefined) return t.fail('the cluster gives no kubeconfig for the operator');
    const rbacFiles = ['00-namespace', '01-serviceaccount', '02-clusterrole', '03-clusterrolebinding']
      .concat(['04-role', '05-rolebinding'])
      .flatMap((f) => ['-f', join(REPO_ROOT, 'deploy', `${f}.yaml`)]);
    await createClusterApiNamespace(cluster.kubeconfigPath);
    await run('kubectl', ['--kubeconfig', cluster.kubeconfigPath, 'apply', ...rbacFiles]);
    const wrong: string[] = [];
    const checks = accessChecks();
    for (let i = 0; i < checks.length; i += 8) {
      const batch = checks.slice(i, i + 8);
      const answers = await Promise.all(batch.map((c) => allowed(operator, accessReview(c.grant))));
      batch.forEach((c, j) => {
        if (answers[j] !== c.allowed) wrong.push(`${c.grant}: expected ${c.allowed ? 'allowed' : 'denied'}`);
      });
    }
    t.deepEqual(wrong, []);
  };
}
