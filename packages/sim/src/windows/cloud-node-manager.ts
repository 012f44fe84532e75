import { flagValue } from './command-line.js';
import { KubeClient } from './kubelet/kube-client.js';
import { readKubeconfig } from './kubelet/kubeconfig-file.js';
import type { ServiceBehaviour, ServiceRun, ServiceStartContext } from './service-behaviour.js';

/** The taint a kubelet started with `--cloud-provider=external` registers with (k8s.io/cloud-provider). */
export const UNINITIALIZED_TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One pass: true once the Node exists without the taint (nothing left to do). */
async function initialize(client: KubeClient, node: string): Promise<boolean> {
  const path = `/api/v1/nodes/${encodeURIComponent(node)}`;
  const current = await client.call<Obj>('GET', path).catch((e: unknown) => {
    if ((e as { code?: number }).code === 404) return undefined;
    throw e;
  });
  if (current === undefined) return false;
  const spec = isObj(current['spec']) ? current['spec'] : {};
  const taints = Array.isArray(spec['taints']) ? (spec['taints'] as unknown[]) : [];
  const kept = taints.filter((t) => !isObj(t) || t['key'] !== UNINITIALIZED_TAINT);
  if (kept.length === taints.length) return true;
  // As the cloud node controller: an update of the Node (resourceVersion kept) without the taint.
  await client.call('PUT', path, { ...current, spec: { ...spec, taints: kept } });
  return true;
}

/** Runs passes until one finishes or the service stops; each refusal is kept as the last error. */
async function run(
  ctx: ServiceStartContext,
  client: KubeClient,
  node: string,
  retryMs: number,
): Promise<void> {
  while (!ctx.signal.aborted) {
    try {
      if (await initialize(client, node)) return;
    } catch (e) {
      lastErrors.set(ctx.host, e instanceof Error ? e.message : String(e));
    }
    await pause(retryMs, ctx.signal);
  }
}

/** The last error of each host's cloud node manager (what its log would say), for tests. */
const lastErrors = new WeakMap<object, string>();
export function cloudNodeManagerLastError(host: object): string | undefined {
  return lastErrors.get(host);
}

/** Fails as a service whose binary or `--kubeconfig` file is missing fails. */
function missingFile(ctx: ServiceStartContext): ServiceRun | undefined {
  const binary = ctx.argv[0];
  if (binary === undefined || !ctx.files.isFile(binary))
    return { state: 'failed', reason: `binary not found: ${binary ?? '(empty command line)'}` };
  const kubeconfig = flagValue(ctx.argv, '--kubeconfig');
  if (kubeconfig === undefined || !ctx.files.isFile(kubeconfig))
    return { state: 'failed', reason: `file not found: ${kubeconfig ?? '(no --kubeconfig)'}` };
  return undefined;
}

/**
 * Azure's cloud node manager (`azure-cloud-node-manager.exe`, cloud-provider-azure's node manager run as
 * a Windows service), modelled for what the operator decides about it: the kubeconfig it runs with. It
 * needs its binary and the file `--kubeconfig` names, reads `--node-name`, then, with the credentials of
 * that kubeconfig, waits for its Node and removes the `node.cloudprovider.kubernetes.io/uninitialized`
 * taint by updating the Node, retrying every `retryMs` while the API server refuses (a node identity is
 * refused by NodeRestriction: "is not allowed to modify taints"). Provider ID, zone labels and addresses,
 * which the real one reads from Azure's instance metadata, are not modelled.
 */
export function cloudNodeManager(retryMs = 500): ServiceBehaviour {
  return {
    start(ctx) {
      const missing = missingFile(ctx);
      if (missing !== undefined) return missing;
      const node = flagValue(ctx.argv, '--node-name');
      if (node === undefined || node === '') return { state: 'failed', reason: '--node-name is required' };
      let client: KubeClient;
      try {
        client = new KubeClient(
          readKubeconfig(ctx.files, flagValue(ctx.argv, '--kubeconfig') ?? ''),
          ctx.signal,
        );
      } catch (e) {
        return { state: 'failed', reason: e instanceof Error ? e.message : String(e) };
      }
      void run(ctx, client, node, retryMs);
      return { state: 'running' };
    },
  };
}
