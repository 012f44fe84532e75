import type { V1Node } from '@kubernetes/client-node';
import {
  parseWindowsInstances,
  type Ipv4Resolver,
  type WindowsInstance,
} from '../../desired/windows-instances.js';
import { instanceRef } from '../../identity/instance-ref.js';
import { nodeOwner } from '../../identity/node-ownership.js';
import type { NodeRecord } from '../../identity/node-record.js';
import { Labels } from '../../identity/node-metadata.js';
import { otherClaimants, usernameProblem } from '../../identity/pre-record-checks.js';
import { errorMessage } from '../../kube/logger.js';
import type { ByohView } from './byoh-view.js';
import { nodeEventRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { nodeInternalIp } from '../../lifecycle/node-ops.js';
import { recordedElsewhere } from '../../identity/records-namespace.js';

/** The reason of the Warning event on a Node whose record could not be made from operator-side data. */
export const NODE_RECORD_NOT_MIGRATED = 'NodeRecordNotMigrated';

type Verdict = { readonly record: NodeRecord } | { readonly refused: string };

/** Why `node` cannot be migrated as `instance`'s, or undefined when operator-side data agrees. */
function mismatch(
  node: V1Node,
  instance: WindowsInstance,
  nodes: readonly V1Node[],
  privateKeyPem: string,
): string | undefined {
  const { address: owner, ipv4Address: ipv4 } = instance;
  const ip = nodeInternalIp(node);
  if (ip !== ipv4) return `its InternalIP ${ip ?? '(none)'} is not ${ipv4}, the address of entry ${owner}`;
  const others = otherClaimants(nodes, node.metadata?.name ?? '', {
    addresses: [ipv4, owner],
    owns: (n) => nodeOwner(n) === owner,
  });
  if (others.length > 0) return `node(s) ${others.join(', ')} claim the same instance or address`;
  return usernameProblem(node, privateKeyPem, { user: instance.username, whose: `entry ${owner}` });
}

function migratedRecord(node: V1Node, instance: WindowsInstance, now: Date): NodeRecord {
  const { dnsName } = instanceRef(instance);
  return {
    source: 'windows-instances',
    instance: instance.address,
    address: instance.ipv4Address,
    nodeName: node.metadata?.name ?? '',
    username: instance.username,
    appliedTags: [],
    recordedAt: now.toISOString(),
    migrated: true,
    ...(dnsName === undefined ? {} : { dnsName }),
  };
}

/**
 * Makes the records of BYOH nodes joined before records existed (issue 27), once, from operator-side data
 * only: the node's owner annotation names a `windows-instances` entry that exists; the Node's InternalIP
 * is the address that entry resolves to; no other Node (any Windows Node, whatever its labels) claims
 * that entry or lists that address (or the entry's DNS name) among its addresses; and the Node's username
 * annotation decrypts with the operator's key to the entry's username. Any mismatch is reported
 * (a Warning event on the Node and a log line) and no record is made: such a node is never acted on.
 * Cloud tags applied before records existed are not recorded (a Node's list of them cannot be trusted),
 * so a removal leaves them on the instance.
 */
export class RecordMigration {
  private done: Promise<void> | undefined;

  constructor(
    private readonly deps: JoinDeps,
    private readonly view: ByohView,
    private readonly resolve: Ipv4Resolver,
  ) {}

  /** Runs the migration the first time it is called (with the key it needs); later calls wait for it. */
  once(privateKeyPem: string): Promise<void> {
    this.done ??= this.run(privateKeyPem).catch((err: unknown) => {
      this.done = undefined; // an API error: the next reconcile tries again
      throw err;
    });
    return this.done;
  }

  private async run(privateKeyPem: string): Promise<void> {
    // Candidates are the BYOH nodes; claimants are every Windows Node (a node may drop its byoh label).
    const nodes = this.view.windowsNodes();
    for (const node of nodes.filter((n) => n.metadata?.labels?.[Labels.byoh] === 'true')) {
      const name = node.metadata?.name ?? '';
      const owner = nodeOwner(node);
      if (owner === undefined || this.deps.records.forNode(name) !== undefined) continue;
      // Another controller's node (joined since records exist): not one to migrate, nor to report.
      if (recordedElsewhere(node, this.deps.namespace)) continue;
      if (this.deps.records.get('windows-instances', owner) !== undefined) {
        await this.refuse(node, `instance ${owner} already has a record naming another node`);
        continue;
      }
      const verdict = await this.judge(node, owner, nodes, privateKeyPem);
      if ('refused' in verdict) await this.refuse(node, verdict.refused);
      else await this.migrate(verdict.record);
    }
  }

  private async judge(
    node: V1Node,
    owner: string,
    nodes: readonly V1Node[],
    privateKeyPem: string,
  ): Promise<Verdict> {
    const value = this.view.instances()?.[owner];
    if (value === undefined) return { refused: `windows-instances has no entry ${owner}` };
    const [parsed] = await parseWindowsInstances({ [owner]: value }, [], this.resolve);
    if (!parsed?.ok) return { refused: `its entry cannot be read: ${parsed?.error ?? 'unparseable'}` };
    const refused = mismatch(node, parsed.instance, nodes, privateKeyPem);
    if (refused !== undefined) return { refused };
    return { record: migratedRecord(node, parsed.instance, this.deps.now?.() ?? new Date()) };
  }

  private async migrate(record: NodeRecord): Promise<void> {
    await this.deps.records.put(record);
    this.deps.logger.info(
      { node: record.nodeName, instance: record.instance },
      'made the record of a node joined before records existed',
    );
  }

  private async refuse(node: V1Node, why: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message = `Node ${name} was joined before the operator kept node records, and no record is made for it: ${why}; the operator will not configure, upgrade or remove it until an admin resolves this (remove the Node, or fix the entry)`;
    this.deps.logger.warn({ node: name, why }, 'node record not migrated');
    await this.deps.events
      .record(nodeEventRef(node), 'Warning', NODE_RECORD_NOT_MIGRATED, message)
      .catch((err: unknown) => this.deps.logger.warn({ err: errorMessage(err) }, 'cannot record an event'));
  }
}
