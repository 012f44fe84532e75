import type { V1Node } from '@kubernetes/client-node';
import { enterPhase } from './instance-status.js';
import type { HostTarget } from './join-deps.js';
import type { UpgradeFlowDeps } from './flow-deps.js';
import { waitForNode } from './node-changes.js';
import { isNodeReady, readNode } from './node-ops.js';
import { needsMaintenance } from './node-upgrades.js';
import { DrainError } from '../kube/client/drain.js';
import { drainWithEvents } from './bounded-drain.js';
import { Annotations } from '../identity/node-metadata.js';
import type { DisruptionBudget } from './disruption-budget.js';
import {
  REBOOT_REQUESTED_ANNOTATION,
  REBOOT_REQUIRED_ANNOTATION,
  lifecyclePhase,
  rebootRequested,
} from './lifecycle-annotations.js';
import { assertOwns, type SourceInstance } from './node-source.js';
import { enterLifecyclePhase, leaveLifecycle, nodeRef } from './node-patch.js';
import { NodeReconfigure } from './node-reconfigure.js';

interface Job {
  readonly name: string;
  /** The version the node carried when this pass began. */
  readonly from: string;
  readonly reboot: boolean;
  readonly verb: 'Upgrade' | 'Reboot';
}

export interface UpgradeRequest {
  /** An owned node whose `version` annotation differs from the operator's, or one it left mid-upgrade. */
  readonly node: V1Node;
  readonly target: HostTarget;
  readonly signal: AbortSignal;
  /** The source's instance the node belongs to (node-source.ts): checked before anything is touched. */
  readonly instance: SourceInstance;
}

export type UpgradeOutcome =
  | { readonly result: 'done'; readonly bytesSent: number }
  /** The budget has no room: nothing was touched. */
  | { readonly result: 'waiting'; readonly max: number; readonly unavailable: readonly string[] }
  /** The drain did not finish in time (a PodDisruptionBudget refused): the node was put back in service. */
  | { readonly result: 'drain-blocked'; readonly pods: readonly string[] };

export interface UpgradeOptions {
  /**
   * The bounded wait for a drain (upstream's drain timeout: 10 min): the node is put back and tried later.
   * With `drainForceAfterMs`, the wait for the pods that timeout deleted.
   */
  readonly drainTimeoutMs: number;
  /** The admin's drain timeout (ADR 0037): after it the blocked pods are deleted and the upgrade goes on. */
  readonly drainForceAfterMs?: number | undefined;
  /** Pause between eviction passes while a PodDisruptionBudget refuses (kubectl: 5 s). */
  readonly drainRetryMs?: number;
}

/**
 * The upgrade of one node (reference §2, upstream's "drain, reconfigure, uncordon"): a grant from the
 * disruption budget; cordon and drain through the Eviction API (PodDisruptionBudgets honoured, DaemonSet
 * pods left); one converge round of the join (only files whose SHA-256 differs are uploaded; services whose
 * binary or command line changed are restarted in dependency order); wait Ready; uncordon and set the
 * version. Each step is recorded in the node's lifecycle-phase annotation and every step converges, so the
 * next leader resumes a node an operator left mid-way instead of leaving it cordoned.
 */
export class UpgradeFlow {
  private readonly reconfigure: NodeReconfigure;

  constructor(
    private readonly deps: UpgradeFlowDeps,
    private readonly budget: DisruptionBudget,
    private readonly options: UpgradeOptions,
  ) {
    this.reconfigure = new NodeReconfigure(deps);
  }

  async upgrade(req: UpgradeRequest): Promise<UpgradeOutcome> {
    const name = req.node.metadata?.name ?? '';
    assertOwns(req.instance, req.node, 'upgrade');
    const decision = this.budget.tryAcquire(name);
    if (!decision.granted) return { result: 'waiting', max: decision.max, unavailable: decision.unavailable };
    try {
      // The caller decided on its informer's copy, which may not show this flow's last patches yet (a
      // pass that just finished): the API's copy decides whether there is anything left to do.
      const node = await readNode(this.deps.core, name);
      if (node === undefined || !needsMaintenance(node, this.deps.version))
        return { result: 'done', bytesSent: 0 };
      const current = { ...req, node };
      return await this.run(current, this.job(current, name));
    } finally {
      this.budget.release(name);
    }
  }

  /** What this pass does: an upgrade (another version) or a reboot only; a reboot when asked or resumed. */
  private job(req: UpgradeRequest, name: string): Job {
    const from = req.node.metadata?.annotations?.[Annotations.version] ?? 'none';
    const reboot = rebootRequested(req.node) || lifecyclePhase(req.node) === 'Rebooting';
    return { name, from, reboot, verb: from === this.deps.version ? 'Reboot' : 'Upgrade' };
  }

  private async run(req: UpgradeRequest, job: Job): Promise<UpgradeOutcome> {
    const { name } = job;
    // The grant is held from here, and a node out of service while a write of its own waits is budget
    // unused: the status write goes out with the cordon (the status ConfigMap takes one write at a time,
    // and twenty passes write it) and is waited for only before the host is touched, after the drain; the
    // event is written while the node drains. A failed status write still fails the pass before anything
    // on the host changes (the node stays cordoned in its phase, and the retry resumes it).
    const upgrading = this.status(req, job.verb === 'Upgrade' ? 'Upgrading' : 'Rebooting');
    upgrading.catch(() => undefined); // waited for below; not an unhandled rejection meanwhile
    await enterLifecyclePhase(this.deps.core, name, 'Draining');
    const started = this.event(
      req.node,
      'Normal',
      `${job.verb}Started`,
      `${this.describe(job)}: cordoned, draining`,
    );
    const blocked = await this.drain(req, job);
    if (blocked) return blocked;
    await upgrading;
    const { bytesSent } = await this.reconfigure.run(req.node, req.target, job.reboot, req.signal);
    await enterLifecyclePhase(this.deps.core, name, 'WaitingReady');
    await waitForNode(this.deps, name, isNodeReady, { signal: req.signal, what: `node ${name} Ready` });
    // The status and the uncordon together (they were one after the other until 2026-11-28, which kept the
    // node out of service while its status write waited its turn). A Ready status lost after the Node
    // left its lifecycle (a 429, the operator killed) is written again by the next reconcile of the
    // instance, which finds a joined, Ready node (joined-status.ts); a lost leave keeps the Node's phase,
    // and the pass resumes and writes both again.
    const ready = this.status(req, 'Ready');
    ready.catch(() => undefined);
    await leaveLifecycle(this.deps.core, name, {
      [Annotations.version]: this.deps.version,
      [Annotations.desiredVersion]: this.deps.version,
      ...(job.reboot ? { [REBOOT_REQUIRED_ANNOTATION]: null, [REBOOT_REQUESTED_ANNOTATION]: null } : {}),
    });
    // Back in service: the slot goes to a waiting node now, not after the status and the event. One that
    // asks before the cache has the uncordon is refused, and is looked at again when the cache has it
    // (DisruptionBudget.nodeChanged). The `finally` of `upgrade` then releases nothing.
    this.budget.release(name);
    await Promise.all([ready, started]);
    const done = job.verb === 'Upgrade' ? 'Upgraded' : 'Rebooted';
    const what = job.verb === 'Upgrade' ? `from ${job.from} to ${this.deps.version}` : 'and reconfigured';
    await this.event(
      req.node,
      'Normal',
      done,
      `${done} node ${name} ${what} (${bytesSent} bytes sent); uncordoned`,
    );
    return { result: 'done', bytesSent };
  }

  private describe(job: Job): string {
    const reboot = job.reboot ? ' with a reboot' : '';
    return job.verb === 'Upgrade'
      ? `Upgrading node ${job.name} from ${job.from} to ${this.deps.version}${reboot}`
      : `Rebooting node ${job.name} on request`;
  }

  /** Drains the node; when the bounded wait runs out it is put back in service and the caller retries later. */
  private async drain(req: UpgradeRequest, job: Job): Promise<UpgradeOutcome | undefined> {
    const { name } = job;
    try {
      await drainWithEvents(this.deps, req.node, job.verb, {
        timeoutMs: this.options.drainTimeoutMs,
        retryMs: this.options.drainRetryMs,
        forceAfterMs: this.options.drainForceAfterMs,
        signal: req.signal,
      });
      return undefined;
    } catch (err) {
      if (req.signal.aborted || !(err instanceof DrainError)) throw err;
      await this.status(req, 'Ready'); // before leaving, as after a pass (see run)
      await leaveLifecycle(this.deps.core, name);
      await this.event(
        req.node,
        'Warning',
        `${job.verb}DrainTimeout`,
        `${job.verb} of node ${name} postponed, node uncordoned: ${err.message}`,
      );
      return { result: 'drain-blocked', pods: [err.message] };
    }
  }

  private async status(req: UpgradeRequest, phase: 'Upgrading' | 'Rebooting' | 'Ready'): Promise<void> {
    const { key: address, extra: sourceExtra } = req.instance.status;
    const extra = { ...sourceExtra, node: req.node.metadata?.name ?? '' };
    await this.deps.status.set(
      enterPhase(this.deps.status.get(address), { address, phase, now: new Date(), extra }),
    );
  }

  private async event(
    node: V1Node,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    await this.deps.events.record(nodeRef(node), type, reason, message);
  }
}
