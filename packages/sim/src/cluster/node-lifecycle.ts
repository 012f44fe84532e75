import { isObject, meta, str, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import type { ErrorSink, SimController } from './controller.js';

export interface NodeLifecycleOptions {
  /** How long without a heartbeat before a Node goes NotReady (kube-controller-manager: 40 s). */
  readonly gracePeriodSeconds: number;
  /** How often to look (default 1 s). */
  readonly intervalMs?: number;
}

const UNREACHABLE = 'node.kubernetes.io/unreachable';

function conditions(n: JsonObject): JsonObject[] {
  const s = isObject(n['status']) ? n['status'] : {};
  return Array.isArray(s['conditions']) ? s['conditions'].filter(isObject) : [];
}

/** The Node's taints (objects only), and its spec to write them back to. */
function taintsOf(n: JsonObject): { spec: JsonObject; taints: JsonObject[] } {
  const spec = isObject(n['spec']) ? n['spec'] : {};
  return { spec, taints: Array.isArray(spec['taints']) ? spec['taints'].filter(isObject) : [] };
}

function hasUnreachableTaint(n: JsonObject): boolean {
  return taintsOf(n).taints.some((t) => t['key'] === UNREACHABLE);
}

/**
 * kube-controller-manager's node lifecycle controller: when neither the node's Lease in kube-node-lease
 * (spec.renewTime) nor its Ready condition's lastHeartbeatTime moved for the grace period, every condition
 * becomes Unknown (NodeStatusUnknown, "Kubelet stopped posting node status.") and the node gets the
 * `node.kubernetes.io/unreachable:NoSchedule` taint. Once the kubelet reports Ready again the taint is removed
 * (the controller's `doNoScheduleTaintingPass` keeps the taints matching the Ready condition, and no others).
 * Nodes that never reported a Ready condition are left alone.
 */
export class NodeLifecycle implements SimController {
  readonly name = 'node-lifecycle';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: ObjectWriter,
    private readonly opts: NodeLifecycleOptions,
    private readonly onError: ErrorSink,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => {
      try {
        this.tick(Date.now());
      } catch (e) {
        this.onError(this.name, e);
      }
    }, this.opts.intervalMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private lastHeartbeat(node: JsonObject): number {
    const name = str(meta(node)['name']) ?? '';
    const leaseType = this.writer.registry.mustFind('coordination.k8s.io', 'v1', 'leases');
    const lease = this.writer.store.get(leaseType, 'kube-node-lease', name);
    const renew = isObject(lease?.['spec']) ? Date.parse(str(lease['spec']['renewTime']) ?? '') : NaN;
    const ready = conditions(node).find((c) => c['type'] === 'Ready');
    const beat = Date.parse(str(ready?.['lastHeartbeatTime']) ?? '');
    return Math.max(Number.isNaN(renew) ? 0 : renew, Number.isNaN(beat) ? 0 : beat);
  }

  tick(now: number): void {
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    for (const node of this.writer.store.all(nodeType)) {
      const ready = conditions(node).find((c) => c['type'] === 'Ready');
      if (ready?.['status'] === 'True' && hasUnreachableTaint(node)) this.markReachable(node);
      if (!ready || ready['status'] === 'Unknown') continue;
      if (now - this.lastHeartbeat(node) < this.opts.gracePeriodSeconds * 1000) continue;
      this.markUnknown(str(meta(node)['name']) ?? '', new Date(now).toISOString().replace(/\.\d+Z$/, 'Z'));
    }
  }

  private markReachable(node: JsonObject): void {
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    this.writer.mutate({ type: nodeType, namespace: undefined, name: str(meta(node)['name']) ?? '' }, (n) => {
      const { spec, taints } = taintsOf(n);
      spec['taints'] = taints.filter((t) => t['key'] !== UNREACHABLE);
      n['spec'] = spec;
      return n;
    });
  }

  private markUnknown(name: string, now: string): void {
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    const current = this.writer.store.get(nodeType, undefined, name);
    if (!current) return;
    const status = isObject(current['status']) ? current['status'] : {};
    status['conditions'] = conditions(current).map((c) => ({
      ...c,
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: now,
    }));
    current['status'] = status;
    this.writer.update({ type: nodeType, namespace: undefined, name, subresource: 'status' }, current);
    this.writer.mutate({ type: nodeType, namespace: undefined, name }, (n) => {
      const { spec, taints } = taintsOf(n);
      if (!taints.some((t) => t['key'] === UNREACHABLE))
        spec['taints'] = [...taints, { key: UNREACHABLE, effect: 'NoSchedule', timeAdded: now }];
      n['spec'] = spec;
      return n;
    });
  }
}
