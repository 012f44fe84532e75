import type { V1Node } from '@kubernetes/client-node';
import { nodeInternalIp } from '../../lifecycle/node-ops.js';
import { nodeEventRef } from '../../lifecycle/join-deps.js';
import type { NodeRecord } from '../../identity/node-record.js';
import type { NodeRecords } from '../../identity/node-record-store.js';
import { Annotations } from '../../identity/node-metadata.js';
import { otherClaimants, usernameProblem } from '../../identity/pre-record-checks.js';
import { recordDisagreements } from '../../lifecycle/node-record-check.js';
import type { RecordMismatchReporter } from '../../lifecycle/record-mismatch-reporter.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { machineKey, nodeMachine } from './machine-instance.js';
import type { WindowsMachine } from './machine-object.js';

export interface MachineRecordDeps {
  readonly records: NodeRecords;
  readonly reporter: RecordMismatchReporter;
  readonly events: EventRecorder;
  /** SSH user of Machines (what a migrated record names, and what the node's username annotation must say). */
  readonly sshUser: string;
  readonly now?: () => Date;
}

/** The Machine's node as the operator recorded it, or why there is none to act on. */
export type MachineNode =
  | { readonly kind: 'node'; readonly node: V1Node | undefined }
  /** A Node contradicts the record, or claims the Machine without one: reported, never acted on. */
  | { readonly kind: 'refused' };

/**
 * The Node of a Machine, read through the operator's record (ADR 0035): the Node of the recorded name,
 * only while it agrees with the record. A Machine node joined before records existed gets its record
 * here, once, when operator-side data agrees (the Machine's address is the Node's InternalIP, no other
 * Node claims the Machine or lists that address, and the Node's username annotation decrypts with the
 * operator's key to the platform's Machine user); else it is reported and left alone. A Node that is not yet
 * claimed (a join under way) is returned as it is: the join claims it, then writes the record.
 */
export async function machineNode(
  d: MachineRecordDeps,
  nodes: readonly V1Node[],
  m: WindowsMachine,
  found: { readonly candidate: V1Node | undefined; readonly privateKeyPem?: string | undefined },
): Promise<MachineNode> {
  const { candidate, privateKeyPem } = found;
  const record = d.records.get('machine', machineKey(m));
  if (record !== undefined) return recorded(d, nodes, record);
  if (candidate === undefined || nodeMachine(candidate) !== machineKey(m))
    return { kind: 'node', node: candidate };
  // Without the key the username cannot be checked: no record yet, nothing done (retried with the key).
  if (privateKeyPem === undefined) return { kind: 'refused' };
  // Claimed but never annotated: a join of this operator that stopped between its two patches (every
  // join writes the username with its first annotation). Nothing is recorded from the Node; the join
  // runs again, to the Machine's own address, and writes the record.
  if ((candidate.metadata?.annotations?.[Annotations.username] ?? '') === '')
    return { kind: 'node', node: undefined };
  return migrate(d, nodes, m, { node: candidate, privateKeyPem });
}

/** A claimed Machine node without a record (joined before records): recorded when operator-side data agrees. */
async function migrate(
  d: MachineRecordDeps,
  nodes: readonly V1Node[],
  m: WindowsMachine,
  c: { readonly node: V1Node; readonly privateKeyPem: string },
): Promise<MachineNode> {
  const candidate = c.node;
  const name = candidate.metadata?.name ?? '';
  const why =
    migrationProblem(nodes, m, candidate) ??
    usernameProblem(candidate, c.privateKeyPem, { user: d.sshUser, whose: `the platform's Machine user` });
  if (why !== undefined) {
    await d.events.record(
      nodeEventRef(candidate),
      'Warning',
      'NodeRecordNotMigrated',
      `Node ${name} claims Machine ${machineKey(m)}, and no record is made for it: ${why}; the operator will not configure, upgrade or reboot it`,
    );
    return { kind: 'refused' };
  }
  await d.records.put({
    source: 'machine',
    instance: machineKey(m),
    address: m.ipv4 ?? '',
    nodeName: name,
    username: d.sshUser,
    appliedTags: [],
    recordedAt: (d.now?.() ?? new Date()).toISOString(),
    migrated: true,
  });
  return { kind: 'node', node: candidate };
}

/** Why a claimed Machine node cannot get its record from operator-side data, or undefined. */
function migrationProblem(
  nodes: readonly V1Node[],
  m: WindowsMachine,
  candidate: V1Node,
): string | undefined {
  const name = candidate.metadata?.name ?? '';
  const ip = nodeInternalIp(candidate);
  if (ip !== m.ipv4)
    return `its InternalIP ${ip ?? '(none)'} is not ${m.ipv4 ?? '(none)'}, the Machine's address`;
  const others = otherClaimants(nodes, name, {
    addresses: [m.ipv4 ?? ''],
    owns: (n) => nodeMachine(n) === machineKey(m),
  });
  return others.length > 0 ? `node(s) ${others.join(', ')} claim the same Machine or address` : undefined;
}

async function recorded(
  d: MachineRecordDeps,
  nodes: readonly V1Node[],
  record: NodeRecord,
): Promise<MachineNode> {
  const node = nodes.find((n) => n.metadata?.name === record.nodeName);
  if (node === undefined) return { kind: 'node', node: undefined };
  const problems = recordDisagreements(node, record);
  if (problems.length === 0) return { kind: 'node', node };
  await d.reporter.report(
    node,
    record,
    problems,
    'configured, upgraded, rebooted or repaired (no SSH connection)',
  );
  return { kind: 'refused' };
}
