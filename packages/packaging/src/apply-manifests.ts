import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import { deployDocs } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

/** A running cluster that kubectl can reach, and how to stop it. */
export interface ClusterHandle {
  /** An admin's kubeconfig. */
  readonly kubeconfigPath: string;
  /** The operator ServiceAccount's kubeconfig, when the cluster provides one. */
  readonly operatorKubeconfigPath?: string;
  stop(): Promise<void>;
}
export type StartCluster = () => Promise<ClusterHandle>;

const run = promisify(execFile);

async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-kubeconfig-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

type Kubeconfigs = { admin: string; operator?: string };

/** Kubeconfig files for the sim handle, or undefined when the handle offers none. */
async function kubeconfigsFor(sim: Record<string, unknown>, dir: string): Promise<Kubeconfigs | undefined> {
  if (typeof sim['writeKubeconfigs'] === 'function') {
    const write = sim['writeKubeconfigs'] as (d: string) => Promise<{ admin?: unknown; operator?: unknown }>;
    const { admin, operator } = await write.call(sim, dir);
    if (typeof admin !== 'string') return undefined;
    return typeof operator === 'string' ? { admin, operator } : { admin };
  }
  if (typeof sim['kubeconfigPath'] === 'string') return { admin: sim['kubeconfigPath'] };
  if (typeof sim['kubeconfig'] !== 'string') return undefined;
  const path = join(dir, 'kubeconfig');
  await writeFile(path, sim['kubeconfig'], { mode: 0o600 });
  return { admin: path };
}

/**
 * Adapts what `@wmco/sim`'s startSimCluster(options) returns: `writeKubeconfigs(dir)` (admin and
 * operator kubeconfigs), or `kubeconfigPath` (a file), or `kubeconfig` (YAML text); and `stop()` or
 * `close()`. Anything else is a clear error naming what is missing.
 */
export function simClusterStarter(
  start: (options?: unknown) => Promise<unknown>,
  options?: Readonly<Record<string, unknown>>,
): StartCluster {
  return async () => {
    const sim = (await (options === undefined ? start() : start(options))) as Record<string, unknown>;
    const stopFn = typeof sim['stop'] === 'function' ? sim['stop'] : sim['close'];
    if (typeof stopFn !== 'function') throw new Error('startSimCluster() result has no stop() or close()');
    const tmp = await tempDir();
    const stop = async (): Promise<void> => {
      await (stopFn as () => Promise<void>).call(sim);
      await tmp.remove();
    };
    const kubeconfigs = await kubeconfigsFor(sim, tmp.dir);
    if (kubeconfigs === undefined) {
      await stop();
      throw new Error(
        'startSimCluster() result has no writeKubeconfigs(dir) with an admin kubeconfig, kubeconfigPath (file) or kubeconfig (YAML text)',
      );
    }
    const { admin, operator } = kubeconfigs;
    return operator === undefined
      ? { kubeconfigPath: admin, stop }
      : { kubeconfigPath: admin, operatorKubeconfigPath: operator, stop };
  };
}

/**
 * The one namespace deploy/ puts a Role in that a bare cluster may lack: openshift-cluster-api (ADR 0019;
 * the simulated OpenShift cluster seeds it). The checks run on a cluster that has it: created when absent.
 */
export async function createClusterApiNamespace(kubeconfig: string): Promise<void> {
  const exists = await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'get',
    'namespace',
    'openshift-cluster-api',
  ]).then(
    () => true,
    () => false,
  );
  if (!exists)
    await run('kubectl', ['--kubeconfig', kubeconfig, 'create', 'namespace', 'openshift-cluster-api']);
}

/**
 * The check of issue 7: `kubectl apply` of deploy/ (through scripts/kubectl-apply-check.sh --apply)
 * succeeds on a fresh cluster, every object is then there, and a second apply changes nothing.
 */
export function applyManifestsTest(startCluster: StartCluster): (t: ExecutionContext) => Promise<void> {
  return async (t) => {
    const cluster = await startCluster();
    t.teardown(() => cluster.stop());
    await createClusterApiNamespace(cluster.kubeconfigPath);
    const env = { ...process.env, KUBECONFIG: cluster.kubeconfigPath };
    const script = join(REPO_ROOT, 'scripts/kubectl-apply-check.sh');
    const first = await run('bash', [script, '--apply'], { env });
    t.log(first.stdout);
    t.regex(first.stdout, /applied cleanly/);
    const got = await run('kubectl', ['get', '-f', join(REPO_ROOT, 'deploy'), '-o', 'name'], { env });
    t.is(got.stdout.trim().split('\n').length, deployDocs().length, got.stdout);
    const second = await run('bash', [script, '--apply'], { env });
    t.notRegex(second.stdout, /\b(created|configured)\b/, 'a second apply changes nothing');
  };
}
