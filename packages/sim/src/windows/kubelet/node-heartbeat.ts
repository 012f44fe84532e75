import { setTimeout as sleep } from 'node:timers/promises';
import { KubeApiError, type KubeClient } from './kube-client.js';
import { postStatus, renewLease } from './node-agent.js';
import { nodeStatus, type NodeIdentity } from './node-object.js';

/** The kubelet's `nodeStatusReportFrequency` default: an unchanged status is still posted this often. */
export const STATUS_REPORT_MS = 5 * 60_000;

export interface HeartbeatOptions {
  readonly nodeUid: string;
  /** `nodeStatusUpdateFrequency` (and the Lease renew interval): how often the status is computed. */
  readonly intervalMs: number;
  /** `nodeStatusReportFrequency` (default 5 min). */
  readonly reportMs?: number;
  readonly signal: AbortSignal;
  /** Called after each beat, with the error when it failed. */
  readonly onBeat: (error?: unknown) => void;
}

type LeaseJson = { metadata: Record<string, unknown>; spec?: Record<string, unknown> };
type StatusJson = Record<string, unknown> & { conditions?: Record<string, unknown>[] };

/** The value with object keys sorted and conditions' `lastHeartbeatTime` left out, as JSON. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key === 'lastHeartbeatTime') return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  });
}

/**
 * Whether the status the kubelet would post differs from the Node's, heartbeats aside (the kubelet's
 * `nodeStatusHasChanged`): every field the kubelet sets is compared with what the Node carries now.
 */
export function statusChanged(current: StatusJson, next: StatusJson): boolean {
  return Object.keys(next).some((k) => canonical(current[k]) !== canonical(next[k]));
}

/** The Lease renewer of the kubelet's lease controller: updates the Lease it last wrote, reads it only when that fails. */
class LeaseRenewer {
  private latest: LeaseJson | undefined;
  private readonly path: string;

  constructor(
    private readonly client: KubeClient,
    private readonly nodeName: string,
    private readonly nodeUid: string,
  ) {
    this.path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${nodeName}`;
  }

  async renew(): Promise<void> {
    const latest = this.latest;
    if (latest !== undefined) {
      const spec = { ...latest.spec, renewTime: new Date().toISOString().replace(/Z$/, '000Z') };
      try {
        this.latest = await this.client.call<LeaseJson>('PUT', this.path, { ...latest, spec });
        return;
      } catch (e) {
        if (!(e instanceof KubeApiError)) throw e;
        this.latest = undefined;
      }
    }
    this.latest = await renewLease(this.client, this.nodeName, this.nodeUid);
  }
}

/**
 * Heartbeats until `signal` aborts, as the kubelet does since node Leases: every `intervalMs` the Lease is
 * renewed (an update of the Lease last written, client-go's lease controller) and the node status is
 * computed against the Node as the API server has it; it is patched only when it changed (heartbeat times
 * aside) or `reportMs` passed since the last post (`tryUpdateNodeStatus`). The Node was just registered
 * with its status, so the first unchanged post is due `reportMs` later. Errors go to `onBeat` and the loop
 * goes on (a kubelet never gives up on the API server).
 */
export async function heartbeat(client: KubeClient, id: NodeIdentity, o: HeartbeatOptions): Promise<void> {
  const lease = new LeaseRenewer(client, id.name, o.nodeUid);
  let reportedAt = Date.now();
  while (!o.signal.aborted) {
    try {
      await lease.renew();
      const node = await client.call<{ status?: StatusJson }>('GET', `/api/v1/nodes/${id.name}`);
      const current = node.status ?? {};
      const next = nodeStatus(id, current.conditions ?? [], new Date()) as StatusJson;
      if (statusChanged(current, next) || Date.now() - reportedAt >= (o.reportMs ?? STATUS_REPORT_MS)) {
        await postStatus(client, id);
        reportedAt = Date.now();
      }
      o.onBeat();
    } catch (e) {
      if (o.signal.aborted) return;
      o.onBeat(e);
    }
    await sleep(o.intervalMs, undefined, { signal: o.signal, ref: false }).catch(() => undefined);
  }
}
