import type { HostFaults, RequestMatcher, SimulatedWindowsHost } from '@wmco/sim';
import { requestReboot } from '@wmco/operator';
import { CHANGED_BINARY } from '../world/upgrade-fixture.js';
import { ownUpdates, statusWrites } from '../world/fault-points.js';
import { NS } from '../world/world-fixture.js';
import type { SoakFault } from './soak-schedule.js';
import type { SoakOperator } from './soak-operator.js';
import type { ScaleWorld } from './scale-world.js';

/** A payload binary drift repair puts back when it is gone (and restarts kube-proxy for). */
const DRIFT_FILE = 'C:\\k\\kube-proxy.exe';

/** Where the day's faults land, and what is still armed or running when the day ends. */
export interface SoakTarget {
  readonly world: ScaleWorld;
  readonly op: SoakOperator;
  /** The fleet (the reference host, joined only at the end, is not in it). */
  readonly fleet: readonly SimulatedWindowsHost[];
  readonly log: (line: string) => void;
}

const nodeName = (h: SimulatedWindowsHost): string => h.model.hostname.toLowerCase();

/** The operator's PATCHes of one Node (its labels, annotations, taints; not the kubelet's status). */
const nodePatches =
  (h: SimulatedWindowsHost): RequestMatcher =>
  (method, path) =>
    method === 'PATCH' && path === `/api/v1/nodes/${nodeName(h)}`;

/**
 * Arms a fault for the host's next apply (the world/fault-matrix-rows.ts host rows) and, if the host is
 * joined, takes a payload binary away: its next drift check finds the drift and applies the repair, which
 * the fault then hits at its first step. A host not joined now gets it at its next join's apply.
 */
function armApply(h: SimulatedWindowsHost, fault: HostFaults): string {
  Object.assign(h.faults, fault);
  return h.model.files.remove(DRIFT_FILE) ? 'on its drift repair' : 'on its next apply';
}

type Apply = (t: SoakTarget, f: SoakFault, h: SimulatedWindowsHost) => Promise<string>;

const server = (t: SoakTarget): ScaleWorld['world']['cluster']['server'] => t.world.world.cluster.server;
const done = (what: string): Promise<string> => Promise.resolve(what);

const APPLY: Record<SoakFault['kind'], Apply> = {
  'ssh-drop': (_t, _f, h) => done(`SSH dropped mid-apply ${armApply(h, { dropDuringApplyAtStep: 0 })}`),
  'power-loss': (_t, _f, h) => done(`power lost mid-apply ${armApply(h, { rebootDuringApplyAtStep: 0 })}`),
  'api-409': (t) => {
    server(t).faults.conflictNext({ times: 3, match: ownUpdates });
    return done("409 Conflict on the operator's next 3 updates of its ConfigMaps");
  },
  'api-429': (t) => {
    server(t).faults.failNext(429, { times: 3, retryAfterSeconds: 1, match: statusWrites });
    return done("429 with Retry-After 1 on the operator's next 3 status writes");
  },
  'api-5xx': (t, _f, h) => {
    server(t).faults.failNext(503, { times: 3, match: statusWrites });
    server(t).faults.failNext(500, { times: 2, match: nodePatches(h) });
    return done(`503 on 3 status writes, 500 on 2 PATCHes of Node ${nodeName(h)}`);
  },
  'watch-drop': (t, f) => {
    // As the matrix's 410 rows (dropAndCompact): a write after the drop, then the compaction, so that a
    // re-watch from a resource version before it gets 410 Gone and the informers relist.
    const s = server(t);
    const n = s.faults.dropWatches();
    s.writer.create(s.registry.mustFind('', 'v1', 'configmaps'), NS, {
      metadata: { name: `soak-marker-${f.atMs}` },
    });
    s.faults.compact();
    return done(`${n} watches dropped and the history compacted (410 on a re-watch from before)`);
  },
  'operator-kill': async (t) => {
    await t.op.killAndRestart();
    return `operator killed (kill -9), successor pid ${await t.op.pid()}`;
  },
  upgrade: async (t, f) => {
    const version = `1.1.0-soak${f.atMs}`;
    const payloadDir = await t.world.world.payloadVariant(`soak-${f.atMs}`, [CHANGED_BINARY]);
    await t.op.upgrade(version, payloadDir);
    return `operator upgraded to ${version} (${CHANGED_BINARY} differs), pid ${await t.op.pid()}`;
  },
  reboot: async (t, _f, h) => {
    try {
      await requestReboot(t.world.world.admin(), nodeName(h));
      return `reboot requested for ${nodeName(h)}`;
    } catch (err) {
      // The client's message runs over several lines (body, headers): its first says enough.
      return `no reboot: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`;
    }
  },
  'host-silent': (_t, f, h) => {
    h.faults.silent = true;
    setTimeout(() => delete h.faults.silent, f.silentMs).unref();
    return done(`host silent after the handshake for ${Math.round(f.silentMs / 1000)} s`);
  },
};

/** Injects one fault; a line saying what was done. */
export async function injectSoakFault(t: SoakTarget, f: SoakFault): Promise<string> {
  const h = t.fleet[f.host]!;
  return `${f.kind} @${nodeName(h)}: ${await APPLY[f.kind](t, f, h)}`;
}

/**
 * The end of the day: silences end at once, and apply faults that no apply took are disarmed (counted:
 * they never fired). The API faults not yet taken are left to fire.
 */
export function endSoakFaults(fleet: readonly SimulatedWindowsHost[]): number {
  let unfired = 0;
  for (const h of fleet) {
    delete h.faults.silent;
    for (const k of ['dropDuringApplyAtStep', 'rebootDuringApplyAtStep'] as const) {
      if (k in h.faults) unfired++;
      delete h.faults[k];
    }
  }
  return unfired;
}
