import type { V1Node } from '@kubernetes/client-node';
import { PROXY_VARIABLES } from '../desired/proxy-env.js';
import { drainNode } from '../kube/client/drain.js';
import { isNotFound } from '../kube/client/api-errors.js';
import { assertOwned } from '../identity/node-ownership.js';
import { errorMessage } from '../kube/logger.js';
import { Annotations } from '../join/node-metadata.js';
import { decryptUsername } from '../join/username-crypto.js';
import { CloudAnnotations } from './cloud-instance.js';
import { enterPhase, type InstancePhase, type InstanceStatus } from './instance-status.js';
import { REMOVE_CONNECT_DEADLINE_MS, instancesConfigMapRef, type JoinDeps } from './join-deps.js';
import { nodeInternalIp, setUnschedulable } from './node-ops.js';

/** Services a node may run, most dependent first (reference §1.4 RequiredServices plus providers'). */
const MANAGED_SERVICES = [
  'kube-proxy',
  'cloud-node-manager',
  'hybrid-overlay-node',
  'windows_exporter',
  'csi-proxy',
  'kubelet',
  'containerd',
];
const HNS_NETWORKS = ['BaseOVNKubernetesHybridOverlayNetwork', 'OVNKubernetesHybridOverlayNetwork'];

export interface RemoveOptions {
  /** Also delete C:\var\log (upstream always does; wmco-ts keeps logs unless asked). */
  readonly deleteLogs: boolean;
  readonly drainTimeoutMs: number;
}

/**
 * Gives a BYOH host back (reference §1.6 Deconfigure): cordon, drain (PodDisruptionBudgets honoured,
 * DaemonSet pods left), remove services, HNS networks, proxy variables and the operator's directories
 * over SSH, then delete the Node. The instances reconciler then forgets the host's SSH key pins (entry-pins.ts).
 */
export class RemoveFlow {
  constructor(private readonly deps: JoinDeps) {}

  async remove(
    node: V1Node,
    privateKeyPem: string,
    options: RemoveOptions & { signal: AbortSignal },
  ): Promise<void> {
    const name = node.metadata?.name ?? '';
    // Never drain, deconfigure or delete a Node this operator did not join (issue 10 item 2).
    assertOwned(node, 'remove');
    const ipv4 = nodeInternalIp(node);
    if (!ipv4) throw new Error(`node ${name} has no InternalIP; cannot reach its host`);
    await this.phase(ipv4, 'Removing', { node: name });
    try {
      await setUnschedulable(this.deps.core, name, true);
      await drainNode(this.deps.core, name, {
        timeoutMs: options.drainTimeoutMs,
        signal: options.signal,
        logger: this.deps.logger,
      });
      await this.deconfigureHost(node, ipv4, privateKeyPem, options);
      await this.untag(node, ipv4);
      await this.deps.core.deleteNode({ name }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    } catch (err) {
      // Stopping (or leadership lost): not a failure; the next leader resumes the removal.
      if (options.signal.aborted) throw err;
      await this.phase(ipv4, 'Failed', { node: name, lastError: `removal: ${errorMessage(err)}` });
      await this.deps.events.record(
        instancesConfigMapRef(this.deps.namespace),
        'Warning',
        'InstanceTeardownFailure',
        `node ${name} (${ipv4}): ${errorMessage(err)}`,
      );
      throw err;
    }
    this.deps.names.disown(node.metadata?.annotations?.[Annotations.instanceAddress] ?? ipv4);
    // Removed: its status goes too, so windows-instances-status only ever lists current instances.
    await this.deps.status.remove(ipv4);
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
      'Normal',
      'InstanceTeardown',
      `Deconfigured node ${name} with address ${ipv4}`,
    );
  }

  /** Only the tags the join applied (recorded on the Node) go; a failure is warned about, never blocking. */
  private async untag(node: V1Node, ipv4: string): Promise<void> {
    await this.deps.cloud?.untag(ipv4, node.metadata?.annotations?.[CloudAnnotations.appliedTags]);
  }

  private async deconfigureHost(
    node: V1Node,
    ipv4: string,
    privateKeyPem: string,
    { deleteLogs, signal }: RemoveOptions & { signal: AbortSignal },
  ): Promise<void> {
    const encrypted = node.metadata?.annotations?.[Annotations.username];
    if (!encrypted)
      throw new Error('the node has no username annotation: it was not joined by this operator');
    const username = decryptUsername(encrypted, privateKeyPem);
    const host = this.deps.openHost({
      address: ipv4,
      ipv4,
      username,
      privateKeyPem,
      connectDeadlineMs: REMOVE_CONNECT_DEADLINE_MS,
      signal,
    });
    try {
      await host.deconfigure({
        services: MANAGED_SERVICES,
        removeTaggedServices: true,
        envVars: [...PROXY_VARIABLES],
        hnsNetworks: HNS_NETWORKS,
        directories: ['C:\\k', 'C:\\Temp', 'C:\\var\\lib\\cni', ...(deleteLogs ? ['C:\\var\\log'] : [])],
        keep: [],
      });
    } finally {
      await host.close();
    }
  }

  private async phase(address: string, phase: InstancePhase, extra: Partial<InstanceStatus>): Promise<void> {
    await this.deps.status.set(
      enterPhase(this.deps.status.get(address), { address, phase, now: new Date(), extra }),
    );
  }
}
