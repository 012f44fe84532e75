import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';

/** Where a scenario suite runs: the simulated cluster, or a real one named by a kubeconfig path. */
export interface ScenarioEnv {
  readonly kc: k8s.KubeConfig;
  /** Present only when running against the simulated cluster (fault hooks, compaction). */
  readonly sim: SimCluster | undefined;
  readonly core: k8s.CoreV1Api;
  stop(): Promise<void>;
}

/** The environment variable that points a scenario suite at another cluster's kubeconfig. */
export const SCENARIO_KUBECONFIG_ENV = 'WMCO_SCENARIO_KUBECONFIG';

export async function scenarioEnv(): Promise<ScenarioEnv> {
  const path = process.env[SCENARIO_KUBECONFIG_ENV];
  const kc = new k8s.KubeConfig();
  let sim: SimCluster | undefined;
  if (path !== undefined && path !== '') kc.loadFromFile(path);
  else {
    sim = await startSimCluster({ nodeGracePeriodSeconds: 2, nodeLifecycleIntervalMs: 200 });
    kc.loadFromString(sim.server.kubeconfig(sim.admin));
  }
  return {
    kc,
    sim,
    core: kc.makeApiClient(k8s.CoreV1Api),
    async stop(): Promise<void> {
      await sim?.stop();
    },
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Polls until `fn` returns a value other than undefined (or throws after timeoutMs). */
export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The HTTP code of a client-node ApiException (undefined for other errors). */
export function apiCode(e: unknown): number | undefined {
  return e instanceof k8s.ApiException ? e.code : undefined;
}

export async function expectApiError(
  p: Promise<unknown>,
): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof k8s.ApiException) {
      const body =
        typeof e.body === 'string'
          ? (JSON.parse(e.body) as Record<string, unknown>)
          : (e.body as Record<string, unknown>);
      return { code: e.code, body };
    }
    throw e;
  }
  throw new Error('expected the API call to fail');
}
