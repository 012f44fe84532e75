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
  readonly kubeconfigPath: string;
  stop(): Promise<void>;
}
export type StartCluster = () => Promise<ClusterHandle>;

const run = promisify(execFile);

/**
 * Adapts whatever `@wmco/sim`'s startSimCluster() returns: `kubeconfigPath` (a file) or `kubeconfig`
 * (its YAML text), and `stop()` or `close()`. Anything else is a clear error naming what is missing.
 */
export function simClusterStarter(start: (options?: unknown) => Promise<unknown>): StartCluster {
  return async () => {
    const sim = (await start()) as Record<string, unknown>;
    const stopFn = typeof sim['stop'] === 'function' ? sim['stop'] : sim['close'];
    if (typeof stopFn !== 'function') throw new Error('startSimCluster() result has no stop() or close()');
    const stopSim = async (): Promise<void> => {
      await (stopFn as () => Promise<void>).call(sim);
    };
    if (typeof sim['kubeconfigPath'] === 'string')
      return { kubeconfigPath: sim['kubeconfigPath'], stop: stopSim };
    if (typeof sim['kubeconfig'] !== 'string') {
      await stopSim();
      throw new Error(
        'startSimCluster() result has neither kubeconfigPath (file) nor kubeconfig (YAML text)',
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'wmco-kubeconfig-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, sim['kubeconfig'], { mode: 0o600 });
    return {
      kubeconfigPath,
      stop: async () => {
        await stopSim();
        await rm(dir, { recursive: true, force: true });
      },
    };
  };
}

/**
 * The check of issue 7: `kubectl apply` of deploy/ (through scripts/kubectl-apply-check.sh --apply)
 * succeeds on a fresh cluster, every object is then there, and a second apply changes nothing.
 */
export function applyManifestsTest(startCluster: StartCluster): (t: ExecutionContext) => Promise<void> {
  return async (t) => {
    const cluster = await startCluster();
    t.teardown(() => cluster.stop());
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
