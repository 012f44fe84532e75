import { type V1Node } from '@kubernetes/client-node';
import { describeStep } from '../converge/describe-plan.js';
import type { Plan } from '../converge/plan.js';
import { needsReboot } from '../converge/reboot-steps.js';
import type { WindowsHost } from '../host/windows-host.js';
import { ownedBy } from '../identity/node-ownership.js';
import { REBOOT_REQUIRED_ANNOTATION, rebootRequested } from './lifecycle-annotations.js';
import { applyObserved, type ObservedPlan } from '../converge/converge-round.js';
import { nodeEventRef, type HostTarget } from './join-deps.js';
import type { DriftRepairDeps } from './flow-deps.js';
import { ConcurrencyBudget, type ServiceDisruption } from './service-disruption.js';
import { NodeValueError } from '../desired/node-values.js';
import { EXPORTER_SERVICE } from '../cluster/read-exporter-tls.js';
import { planNode } from './node-plan.js';
import { publishServicesConfigMap } from './services-configmap-publisher.js';
import { designContent, designNode, type NodeDesign } from '../desired/node-spec.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';

/** What one drift check found and did. */
export type DriftOutcome =
  | { readonly result: 'clean' }
  | { readonly result: 'repaired'; readonly steps: readonly string[] }
  /** Drift the check leaves alone: steps that need a reboot (requested instead), or the host left. */
  | { readonly result: 'skipped'; readonly steps: readonly string[]; readonly why: string };

interface RepairInput {
  readonly design: NodeDesign;
  readonly host: WindowsHost;
  readonly look: ObservedPlan;
}

export interface DriftCheck {
  readonly node: V1Node;
  readonly target: HostTarget;
  readonly signal: AbortSignal;
  /** Asked again just before anything changes: false when the host is no longer the operator's to fix. */
  readonly stillWanted: () => boolean;
  /** Whether the node is still this source's (default: the BYOH instance at `target.address`). */
  readonly owns?: (node: V1Node) => boolean;
}

const MAX_EVENT_MESSAGE = 1000;
const STOPPING: DriftOutcome = { result: 'skipped', steps: [], why: 'stopping' };

function summary(p: Plan): string[] {
  return p.steps.map(describeStep);
}

/**
 * WICD's periodic resync, done by the operator (ARCHITECTURE §6): look at a Ready, up-to-date node with
 * one observe (value pre-scripts only; a node that matches costs exactly that); when the host differs
 * from its spec, apply that observe's plan (pre-scripts run for their effect inside it, before their
 * services start) and record `DriftRepaired`. Steps that need a reboot are
 * not applied on a Ready node without a drain: they get a `DriftNeedsReboot` warning and the node gets upstream's `reboot-required`
 * annotation, which the lifecycle turns into a graceful reboot under the disruption budget (drain,
 * converge, reboot, uncordon).
 */
export class DriftRepair {
  private readonly warned = new Map<string, string>();
  private published = '';
  private readonly budget: ServiceDisruption;

  constructor(private readonly deps: DriftRepairDeps) {
    this.budget = deps.disruption ?? new ConcurrencyBudget(1);
  }

  async check(c: DriftCheck): Promise<DriftOutcome> {
    if (!(c.owns?.(c.node) ?? ownedBy(c.node, c.target.address)))
      return { result: 'skipped', steps: [], why: 'the node is not owned by this instance' };
    const design = designNode(this.deps, await this.deps.facts());
    await this.publish(design);
    // Connecting ends at once when the check is aborted (the operator stops), not at its deadline.
    const host = this.deps.openHost({ ...c.target, signal: c.signal });
    try {
      const look = await Promise.resolve()
        .then(() => planNode(host, design, c.node))
        .catch((err: unknown) => this.refuse(c, err));
      if (look === undefined) return { result: 'skipped', steps: [], why: 'a node value was refused' };
      if (look.plan.steps.length === 0) {
        this.warned.delete(c.target.address);
        return { result: 'clean' };
      }
      if (needsReboot(look.plan)) return await this.skipReboot(c, summary(look.plan));
      // Restarting a running service (to read a new file, configuration or environment) disrupts the node;
      // restarting windows_exporter (a new certificate) only pauses its metrics, so it needs no budget.
      if (look.plan.steps.some((s) => s.kind === 'stopService' && s.name !== EXPORTER_SERVICE))
        // The wait for the budget may be long: look again once it is granted.
        return await this.budget.disrupt(c.node.metadata?.name ?? '', async () =>
          this.wanted(c)
            ? this.repair(c, { design, host, look: await planNode(host, design, c.node) })
            : STOPPING,
        );
      return await this.repair(c, { design, host, look });
    } finally {
      await host.close();
    }
  }

  /**
   * Applies the plan of the check's own observe: the pre-scripts run for their effect (network-conf.ps1)
   * are steps of that plan, right before the services they belong to start, so no second observe is needed.
   */
  private async repair(c: DriftCheck, r: RepairInput): Promise<DriftOutcome> {
    if (!this.wanted(c)) return STOPPING;
    const steps = summary(r.look.plan);
    if (steps.length === 0) return { result: 'clean' };
    if (needsReboot(r.look.plan)) return this.skipReboot(c, steps);
    const { outcome } = await applyObserved(r.host, r.look, designContent(r.design, this.deps.payloadDir));
    const name = c.node.metadata?.name ?? '';
    this.deps.logger.info(
      { node: name, address: c.target.address, steps, rebootRequired: outcome.rebootRequired },
      'repaired drift',
    );
    await this.deps.events.record(
      nodeEventRef(c.node),
      'Normal',
      'DriftRepaired',
      truncate(`Repaired node ${name} (${c.target.address}): ${steps.join('; ')}`),
    );
    return { result: 'repaired', steps };
  }

  private wanted(c: DriftCheck): boolean {
    return !c.signal.aborted && c.stillWanted();
  }

  /**
   * Keeps `windows-services-<version>` in step with what drift repair converges to (`wmco plan` reads it),
   * e.g. after the operator restarted with other log settings. Once per content per process.
   */
  private async publish(design: NodeDesign): Promise<void> {
    const key = JSON.stringify({ services: design.services, envVars: design.envVars });
    if (key === this.published) return;
    await publishServicesConfigMap(this.deps.core, this.deps.namespace, this.deps.version, design);
    this.published = key;
  }

  /**
   * A Node value of the wrong type (someone patched the hybrid-overlay subnet): nothing ran on the host;
   * one warning per distinct refusal, and the node is left as it is until the value is fixed.
   */
  private async refuse(c: DriftCheck, err: unknown): Promise<undefined> {
    if (!(err instanceof NodeValueError)) throw err;
    const name = c.node.metadata?.name ?? '';
    const message = truncate(
      `Node ${name} (${c.target.address}): ${err.message}; nothing was run on the host`,
    );
    if (this.warned.get(c.target.address) === message) return undefined;
    this.warned.set(c.target.address, message);
    this.deps.logger.warn({ node: name, address: c.target.address }, err.message);
    await this.deps.events.record(nodeEventRef(c.node), 'Warning', 'NodeValueRefused', message);
    return undefined;
  }

  private async skipReboot(c: DriftCheck, steps: readonly string[]): Promise<DriftOutcome> {
    const name = c.node.metadata?.name ?? '';
    const message = truncate(
      `Node ${name} (${c.target.address}) differs from its spec in ways that need a reboot; not repaired ` +
        `while the node is Ready, a graceful reboot is requested: ${steps.join('; ')}`,
    );
    if (this.warned.get(c.target.address) !== message) {
      this.warned.set(c.target.address, message);
      this.deps.logger.warn({ node: name, address: c.target.address, steps }, 'drift needs a reboot');
      await this.deps.events.record(nodeEventRef(c.node), 'Warning', 'DriftNeedsReboot', message);
    }
    if (!rebootRequested(c.node) && !c.signal.aborted && c.stillWanted())
      await mergePatchNode(this.deps.core, name, {
        metadata: { annotations: { [REBOOT_REQUIRED_ANNOTATION]: '' } },
      });
    return { result: 'skipped', steps, why: 'needs a reboot' };
  }
}

function truncate(message: string): string {
  return message.length <= MAX_EVENT_MESSAGE ? message : `${message.slice(0, MAX_EVENT_MESSAGE - 1)}…`;
}
