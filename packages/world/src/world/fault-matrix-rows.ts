import type { HostFaults } from '@wmco/sim';
import type { FaultContext, FaultPhase, FaultRow } from './fault-row.js';
import { HOST_FAULT_ROWS } from './fault-matrix-host-rows.js';
import { LEASE_LOST_ROW } from './fault-matrix-lease-row.js';
import {
  atPhase,
  deconfigured,
  dropAndCompact,
  goingDown,
  kubeletCreated,
  nodeWrites,
  ownCreates,
  statusWrites,
} from './fault-points.js';

// The fault matrix of issue 28 (item 5): each row one fault at one point of a join, an upgrade, a reboot or a
// removal. `fault-matrix.e2e.test.ts` runs every row and checks the same four things for each.
//
// The row of a user deleting a Machine mid-join needs a world of Machines: fault-matrix-machine.ts. The rows
// of a host silent mid-protocol and of endless output are in fault-matrix-host-rows.ts, the Lease lost while
// the process lives in fault-matrix-lease-row.ts.

const apiServer = (c: FaultContext): FaultContext['world']['cluster']['server'] => c.world.cluster.server;

/** Every injected API error was answered to a request (none left waiting). */
const apiFired = (c: FaultContext): boolean => apiServer(c).faults.pending() === 0;

function apiRow(name: string, phase: FaultPhase, arm: (c: FaultContext) => void): FaultRow {
  return { name, phase, inject: (c) => Promise.resolve(arm(c)), fired: apiFired };
}

/** A host fault armed before the phase: it fires on the target's next apply. */
function hostRow(name: string, phase: FaultPhase, fault: HostFaults, faultReboots = 0): FaultRow {
  return {
    name,
    phase,
    faultReboots,
    inject: (c) => Promise.resolve(void Object.assign(c.target.sim.faults, fault)),
    fired: (c) => Object.keys(fault).every((k) => !(k in c.target.sim.faults)),
  };
}

const restarted = new WeakSet<FaultContext>();

/** The operator is killed at `point` and a successor started; it must finish the flow. */
function killRow(name: string, phase: FaultPhase, point: (c: FaultContext) => Promise<void>): FaultRow {
  return {
    name,
    phase,
    inject: async (c) => {
      await point(c);
      await c.restartOperator();
      restarted.add(c);
    },
    fired: (c) => restarted.has(c),
  };
}

const dropped = new WeakSet<FaultContext>();

/** Watches dropped (and, with `compact`, the history compacted: 410 Gone on the re-watch) at `point`. */
function watchRow(
  name: string,
  phase: FaultPhase,
  compact: boolean,
  point: (c: FaultContext) => Promise<void>,
): FaultRow {
  return {
    name,
    phase,
    inject: async (c) => {
      await point(c);
      const n = compact ? dropAndCompact(c, phase) : apiServer(c).faults.dropWatches();
      if (n > 0) dropped.add(c);
    },
    // With a compaction, an informer's relist after its 410 is the operator's own word that it happened.
    fired: (c) => dropped.has(c) && (!compact || c.logs.some((l) => l.includes('resource version expired'))),
  };
}

const configuring = (c: FaultContext): Promise<void> => atPhase(c, 'Configuring');

export const FAULT_ROWS: readonly FaultRow[] = [
  // Join.
  hostRow('join: SSH connection dropped mid-apply', 'join', { dropDuringApplyAtStep: 3 }),
  hostRow('join: host rebooted (power lost) mid-apply', 'join', { rebootDuringApplyAtStep: 3 }, 1),
  // The join's ConfigMap creates (the pending pins, the node record) get 409 AlreadyExists; the record's
  // fallback replace finds no object (404), the join fails once and its retry writes the record. (Before
  // statuses were merge patches, this row hit their PUTs with 409 Conflict.)
  apiRow("join: 409 AlreadyExists on the operator's ConfigMap creates", 'join', (c) =>
    apiServer(c).faults.failNext(409, { times: 2, match: ownCreates(c) }),
  ),
  watchRow('join: 410 Gone on the re-watch (dropped and compacted)', 'join', true, configuring),
  apiRow("join: 429 with Retry-After on the operator's writes", 'join', (c) => {
    apiServer(c).faults.failNext(429, { times: 2, retryAfterSeconds: 1, match: statusWrites });
    apiServer(c).faults.failNext(429, { times: 1, retryAfterSeconds: 1, match: nodeWrites(c, 'PATCH') });
  }),
  apiRow("join: 5xx on the operator's writes", 'join', (c) => {
    apiServer(c).faults.failNext(503, { times: 2, match: statusWrites });
    apiServer(c).faults.failNext(500, { times: 2, match: nodeWrites(c, 'PATCH') });
  }),
  watchRow('join: every watch dropped', 'join', false, configuring),
  {
    name: 'join: cloud throttled (EC2 RequestLimitExceeded)',
    phase: 'join',
    world: { platform: 'AWS', cloud: true },
    inject: (c) => {
      c.world.cloud?.faults.inject('throttle', { operation: 'DescribeInstances', times: 6 });
      c.world.cloud?.faults.inject('throttle', { operation: 'CreateTags', times: 2 });
      return Promise.resolve();
    },
    fired: (c) => (c.world.cloud?.faults.count('DescribeInstances') ?? 0) > 6,
  },
  killRow('join: operator killed after the kubelet service was created', 'join', kubeletCreated),
  ...HOST_FAULT_ROWS,
  LEASE_LOST_ROW,
  // Upgrade.
  hostRow('upgrade: SSH connection dropped mid-apply', 'upgrade', { dropDuringApplyAtStep: 2 }),
  // Power lost at step 2 of the upgrade's apply, after a file was placed: the resumed plan no longer places
  // that file, and the next apply removes its staged copy (Remove-WmcoUnplannedStaged).
  hostRow('upgrade: host rebooted (power lost) mid-apply', 'upgrade', { rebootDuringApplyAtStep: 2 }, 1),
  killRow('upgrade: operator killed while the target upgrades', 'upgrade', (c) => atPhase(c, 'Upgrading')),
  // Reboot.
  killRow('reboot: operator killed while the target is down', 'reboot', goingDown),
  // A reboot creates and replaces no ConfigMap, and its status writes are merge patches, which a real API
  // server never answers with 409 (before they were, this row also injected 409s on them): 5xx on those.
  apiRow("reboot: 5xx on the operator's status writes", 'reboot', (c) =>
    apiServer(c).faults.failNext(503, { times: 3, match: statusWrites }),
  ),
  // Removal.
  apiRow('removal: 5xx on the Node delete', 'removal', (c) =>
    apiServer(c).faults.failNext(503, { times: 2, match: nodeWrites(c, 'DELETE') }),
  ),
  watchRow(
    'removal: 410 Gone on the re-watch after the host was deconfigured',
    'removal',
    true,
    deconfigured,
  ),
  killRow('removal: operator killed after the host was deconfigured', 'removal', deconfigured),
];
