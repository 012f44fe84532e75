import { type V1Node } from '@kubernetes/client-node';
import { convergeRound, type RoundResult } from '../converge/converge-round.js';
import type { HostTarget } from './join-deps.js';
import type { ReconfigureDeps } from './flow-deps.js';
import {
  designContent,
  designNode,
  nodeHostSpec,
  nodeScripts,
  type NodeDesign,
} from '../desired/node-spec.js';
import { readNode } from './node-ops.js';
import { publishServicesConfigMap } from './services-configmap-publisher.js';
import type { WindowsHost } from '../host/windows-host.js';
import { bootRecord, hostBootedSince } from './boot-record.js';
import { LIFECYCLE_BOOT_ANNOTATION } from './lifecycle-annotations.js';
import { enterLifecyclePhase } from './node-patch.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';

export interface ReconfigureResult {
  readonly bytesSent: number;
  /** Whether the host booted during this maintenance pass (this leader's or a predecessor's reboot). */
  readonly rebooted: boolean;
}

/**
 * The host side of a maintenance pass on a drained node: one converge round of the join (only files whose
 * SHA-256 differs are uploaded; services whose binary or command line changed restarted in dependency
 * order; the round reboots the host itself when what it applied needs it, e.g. a machine environment
 * variable); then, when a reboot was asked and the host has not booted since the pass began, the reboot;
 * after any reboot a second round puts back what a boot loses (routes such as AWS's metadata route).
 *
 * The host's boot id is recorded on the Node at the first round, so a successor leader that finds another
 * boot id does not reboot the node again (ADR 0020, ADR 0032).
 */
export class NodeReconfigure {
  constructor(private readonly deps: ReconfigureDeps) {}

  /** `signal` is checked between steps: an operator stopping leaves the node at a recorded step. */
  async run(
    node: V1Node,
    target: HostTarget,
    reboot: boolean,
    signal: AbortSignal,
  ): Promise<ReconfigureResult> {
    const name = node.metadata?.name ?? '';
    const design = designNode(this.deps, await this.deps.facts());
    // The record of what this version installs exists before any node is configured with it.
    await publishServicesConfigMap(this.deps.core, this.deps.namespace, this.deps.version, design);
    const host = this.deps.openHost({ ...target, signal });
    try {
      signal.throwIfAborted();
      await enterLifecyclePhase(this.deps.core, name, 'Configuring');
      const first = await this.round(host, design, name);
      let rebooted = first.rebooted;
      if (reboot && !rebooted) {
        signal.throwIfAborted();
        await enterLifecyclePhase(this.deps.core, name, 'Rebooting');
        await host.reboot();
        rebooted = true;
      }
      if (!rebooted) return { bytesSent: first.bytesSent, rebooted };
      signal.throwIfAborted();
      await enterLifecyclePhase(this.deps.core, name, 'Configuring');
      const second = await this.round(host, design, name);
      return { bytesSent: first.bytesSent + second.bytesSent, rebooted };
    } finally {
      await host.close();
    }
  }

  /** One converge round; `rebooted` when it rebooted the host or finds it booted since the pass began. */
  private async round(
    host: WindowsHost,
    design: NodeDesign,
    name: string,
  ): Promise<{ bytesSent: number; rebooted: boolean }> {
    const node = await readNode(this.deps.core, name);
    if (!node) throw new Error(`node ${name} is gone`);
    const recorded = node.metadata?.annotations?.[LIFECYCLE_BOOT_ANNOTATION];
    let bootedSince = false;
    const round: RoundResult = await convergeRound(host, {
      specFor: (values) => nodeHostSpec(design, values, node),
      scripts: nodeScripts(design, node),
      content: designContent(design, this.deps.payloadDir),
      beforeApply: async (_values, state) => {
        // The boot id, never the boot time: that one moves without a reboot (ADR 0032).
        if (recorded !== undefined) bootedSince = hostBootedSince(recorded, state);
        else await this.recordBoot(name, bootRecord(state));
      },
    });
    this.deps.logger.info(
      { node: name, steps: round.plan.steps.length, bytesSent: round.bytesSent, bootedSince },
      'maintenance reconfigured the host',
    );
    return { bytesSent: round.bytesSent, rebooted: bootedSince || round.outcome.rebootRequired };
  }

  private async recordBoot(name: string, boot: string): Promise<void> {
    await mergePatchNode(this.deps.core, name, {
      metadata: { annotations: { [LIFECYCLE_BOOT_ANNOTATION]: boot } },
    });
  }
}
