import type { V1Node } from '@kubernetes/client-node';
import { PROXY_VARIABLES } from '../desired/proxy-env.js';
import { NODE_FIREWALL_RULES } from '../desired/host-spec-builder.js';
import { drainWithEvents } from './bounded-drain.js';
import { isNotFound } from '../kube/client/api-errors.js';
import type { NodeRecord } from '../identity/node-record.js';
import { recordDisagreements } from './node-record-check.js';
import { errorMessage } from '../kube/logger.js';
import { enterPhase, type InstancePhase, type InstanceStatus } from './instance-status.js';
import { REMOVE_CONNECT_DEADLINE_MS, instancesConfigMapRef, type JoinDeps } from './join-deps.js';
import { setUnschedulable } from './node-ops.js';
import type { ObjectRef } from '../kube/event-recorder.js';

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
/**
 * Upstream's list (`C:\k`, `C:\Temp`, `C:\var\lib\cni`), the kubelet's certificates (a host added again must
 * not present the removed node's identity), and the module's own folder (module file and staging area).
 */
const REMOVED_DIRECTORIES = [
  'C:\\k',
  'C:\\Temp',
  'C:\\var\\lib\\cni',
  'C:\\var\\lib\\kubelet',
  'C:\\ProgramData\\wmco',
];

export interface RemoveOptions {
  /** Also delete C:\var\log (upstream always does; wmco-ts keeps logs unless asked). */
  readonly deleteLogs: boolean;
  readonly drainTimeoutMs: number;
  /** The admin's drain timeout (ADR 0037): after it the blocked pods are deleted and the removal goes on. */
  readonly drainForceAfterMs?: number | undefined;
}

/** What a removal acts on: the operator's record, and the Node of the recorded name when it exists. */
export interface RemovalSubject {
  readonly record: NodeRecord;
  /** The Node named in the record; it must agree with the record (the caller checked, this re-checks). */
  readonly node: V1Node | undefined;
}

/** What a removal needs of the flows' dependencies (not the payload, the facts or the join's timings). */
export type RemoveDeps = Pick<
  JoinDeps,
  'core' | 'namespace' | 'openHost' | 'events' | 'logger' | 'status' | 'names' | 'records' | 'cloud'
>;

/**
 * Gives a BYOH host back (reference §1.6 Deconfigure): cordon, drain (PodDisruptionBudgets honoured,
 * DaemonSet pods left), remove services, HNS networks, proxy variables and the operator's directories
 * over SSH, then delete the Node. Where to connect, as whom, which Node and which cloud tags all come
 * from the operator's record (ADR 0035), never from the Node's own fields. The instances reconciler then
 * forgets the host's SSH key pins (sources/byoh/entry-pins.ts).
 */
export class RemoveFlow {
  constructor(private readonly deps: RemoveDeps) {}

  async remove(
    { record, node }: RemovalSubject,
    privateKeyPem: string,
    options: RemoveOptions & { signal: AbortSignal; eventTarget?: ObjectRef },
  ): Promise<void> {
    // The removal's events go on the instance's object where its source names one (an embedder's host).
    const target = options.eventTarget ?? instancesConfigMapRef(this.deps.namespace);
    const name = record.nodeName;
    const address = record.address;
    // Never drain, deconfigure or delete a Node that contradicts the record (issue 27).
    const problems = node ? recordDisagreements(node, record) : [];
    if (problems.length > 0)
      throw new Error(
        `will not remove node ${name}: it contradicts the operator's record (${problems.join('; ')})`,
      );
    await this.phase(address, 'Removing', { node: name });
    try {
      if (node) {
        await setUnschedulable(this.deps.core, name, true);
        await drainWithEvents(this.deps, node, 'Removal', {
          timeoutMs: options.drainTimeoutMs,
          forceAfterMs: options.drainForceAfterMs,
          signal: options.signal,
        });
      }
      await this.deconfigureHost(record, privateKeyPem, options);
      await this.untag(record);
      if (node)
        await this.deps.core.deleteNode({ name }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    } catch (err) {
      // Stopping (or leadership lost): not a failure; the next leader resumes the removal.
      if (options.signal.aborted) throw err;
      await this.phase(address, 'Failed', { node: name, lastError: `removal: ${errorMessage(err)}` });
      await this.deps.events.record(
        target,
        'Warning',
        'InstanceTeardownFailure',
        `node ${name} (${address}): ${errorMessage(err)}`,
      );
      throw err;
    }
    this.deps.names.disown(record.instance);
    await this.deps.records.remove(record.source, record.instance);
    // Removed: its status goes too, so windows-instances-status only ever lists current instances.
    await this.deps.status.remove(address);
    await this.deps.events.record(
      target,
      'Normal',
      'InstanceTeardown',
      `Deconfigured node ${name} with address ${address}`,
    );
  }

  /** Only the tags the record says the operator applied, on the recorded instance; never blocking. */
  private async untag(record: NodeRecord): Promise<void> {
    if (record.appliedTags.length === 0) return;
    await this.deps.cloud?.untag(record.address, JSON.stringify(record.appliedTags), record.cloudInstanceId);
  }

  private async deconfigureHost(
    record: NodeRecord,
    privateKeyPem: string,
    { deleteLogs, signal }: RemoveOptions & { signal: AbortSignal },
  ): Promise<void> {
    const host = this.deps.openHost({
      // The key as the join connected: a DNS-listed host's key is pinned by name too.
      address: record.source === 'machine' ? record.address : record.instance,
      ipv4: record.address,
      username: record.username,
      privateKeyPem,
      connectDeadlineMs: REMOVE_CONNECT_DEADLINE_MS,
      signal,
    });
    try {
      const outcome = await host.deconfigure({
        services: MANAGED_SERVICES,
        removeTaggedServices: true,
        envVars: [...PROXY_VARIABLES],
        // Only what the module marked as its own at import or creation: a Windows root, or a rule an
        // admin made before the join, stays.
        removeManagedRootCertificates: true,
        firewallRules: NODE_FIREWALL_RULES.map((r) => r.name),
        hnsNetworks: HNS_NETWORKS,
        directories: [...REMOVED_DIRECTORIES, ...(deleteLogs ? ['C:\\var\\log'] : [])],
        keep: [],
        removeIfEmpty: ['C:\\var\\lib', 'C:\\var'],
        // Machine variables and the Root store reach every process only after a restart (upstream's WICD
        // cleanup asks for one too). The node is drained and cordoned by now, so the restart disrupts
        // nothing; the module schedules it, so the operator never connects again (and puts nothing back).
        rebootWhenRequired: true,
      });
      if (outcome.rebootRequired && outcome.rebootScheduled !== true) await host.reboot();
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
