import type { V1Node } from '@kubernetes/client-node';
import {
  Annotations,
  decodeNodeRecord,
  recordDisagreements,
  NODE_RECORD_LABEL,
  type NodeRecord,
  isNodeReady,
  nodeInternalIp,
  planByohInstance,
  planNode,
  publicKeyOf,
  type ByohPlan,
} from '@wmco/core/internal';
import {
  publicKeyHash,
  HostKeyMismatchError,
  InMemoryHostKeyStore,
  ReadOnlyHostKeyStore,
  SshWindowsHost,
  errorMessage,
  type Plan,
} from '@wmco/core';
import { WMCO_VERSION } from '../version-command.js';
import type { DesignSource, PlanSource } from './plan-inputs.js';

/** What `wmco plan` found for one node. */
export interface NodePlanReport {
  readonly node: string;
  readonly address: string;
  readonly result: 'changes' | 'no-changes' | 'error';
  /** Empty when nothing would change, or when the node could not be planned. */
  readonly plan: Plan;
  readonly notes: readonly string[];
  readonly error?: string;
  /** What the operator does next to the node (`planByohInstance`, the decision its reconciler acts on). */
  readonly next?: ByohPlan;
}

export interface NodePlannerOptions {
  readonly source: PlanSource;
  readonly designs: DesignSource;
  readonly privateKeyPem: string;
  /** sshd ports other than 22, by address. */
  readonly sshPorts: ReadonlyMap<string, number>;
  readonly connectTimeoutMs: number;
}

/**
 * Plans one BYOH node the way the operator would converge it, changing nothing: SSH with the operator's
 * key to the address and as the user of the operator's record of the node (a Node that contradicts its
 * record, or has none, is not connected to), the host key pinned in that record (never a new pin; ADR
 * 0038), one observe with the value pre-scripts, then `plan()`.
 */
export class NodePlanner {
  private records: Promise<NodeRecord[]> | undefined;
  private readonly hash: string;

  constructor(private readonly o: NodePlannerOptions) {
    this.hash = publicKeyHash(publicKeyOf(o.privateKeyPem));
  }

  async plan(node: V1Node): Promise<NodePlanReport> {
    const name = node.metadata?.name ?? '';
    const notes = this.notes(node);
    let address = nodeInternalIp(node) ?? '';
    const next = planByohInstance(node, this.hash, WMCO_VERSION);
    try {
      // Where to connect and as whom come from the operator's record, never from the Node (ADR 0035).
      const record = await this.recordOf(node);
      address = record.address;
      const plan = await this.look(node, record);
      const result = plan.steps.length === 0 ? 'no-changes' : 'changes';
      return { node: name, address, result, plan, notes, next };
    } catch (err) {
      const error = describe(err);
      return { node: name, address, result: 'error', plan: { steps: [] }, notes, error, next };
    }
  }

  private notes(node: V1Node): string[] {
    const version = node.metadata?.annotations?.[Annotations.version];
    const notes: string[] = [];
    if (!isNodeReady(node)) notes.push('the node is not Ready');
    if (version !== undefined && version !== WMCO_VERSION)
      notes.push(`configured by operator version ${version}; this wmco is ${WMCO_VERSION}`);
    return notes;
  }

  /** The operator's record of the node, checked against it; throws when there is none or they disagree. */
  private async recordOf(node: V1Node): Promise<NodeRecord> {
    this.records ??= this.o.source.core
      .listNamespacedConfigMap({
        namespace: this.o.source.namespace,
        labelSelector: `${NODE_RECORD_LABEL}=true`,
      })
      .then((l) => l.items.map(decodeNodeRecord).filter((r): r is NodeRecord => r !== undefined));
    const name = node.metadata?.name ?? '';
    const record = (await this.records).find((r) => r.nodeName === name && r.source === 'windows-instances');
    if (!record)
      throw new Error('the operator has no record of joining this node; wmco plan does not connect to it');
    const problems = recordDisagreements(node, record);
    if (problems.length > 0)
      throw new Error(
        `the Node contradicts the operator's record (${problems.join('; ')}); wmco plan does not connect to it`,
      );
    return record;
  }

  private async look(node: V1Node, record: NodeRecord): Promise<Plan> {
    const a = node.metadata?.annotations ?? {};
    const { address, username } = record;
    const version = a[Annotations.version];
    if (!version) throw new Error(`the node has no ${Annotations.version} annotation: it is not joined yet`);
    const design = await this.o.designs.design(version);
    const port = this.o.sshPorts.get(address);
    const pinAddress = port !== undefined && port !== 22 ? `${address}:${port}` : address;
    if (record.hostKey === undefined)
      throw new Error(
        `the operator's record of this node pins no SSH host key for ${pinAddress} yet; ` +
          'wmco plan only connects to hosts the operator has pinned',
      );
    const pins = new InMemoryHostKeyStore();
    await pins.pin(pinAddress, record.hostKey);
    const host = new SshWindowsHost({
      host: address,
      ...(port !== undefined ? { port } : {}),
      username,
      privateKey: this.o.privateKeyPem,
      hostKeys: new ReadOnlyHostKeyStore(pins),
      connectDeadlineMs: this.o.connectTimeoutMs,
      authRetryMs: 0,
      retryInitialMs: 250,
      retryMaxMs: 2000,
      readyTimeoutMs: Math.min(20_000, this.o.connectTimeoutMs),
    });
    try {
      return (await planNode(host, design, node)).plan;
    } finally {
      await host.close();
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof HostKeyMismatchError)
    return `SSH host key changed: ${err.message} (wmco plan does not pin the new key)`;
  return errorMessage(err);
}
