import type { FaultContext, FaultRow } from './fault-row.js';
import { eventsAbout, until } from './world-fixture.js';

// The fault matrix's rows for a host that misbehaves mid-protocol (issue 28, items 1 and 2): silent at a
// point of the protocol, and printing without end. Each row's world gets short host deadlines and a small
// output bound, so a fault costs the row seconds, not the adapter's defaults (60 s, 8 MiB).

/** The row worlds' quick-request deadline (ms): an SFTP request, the module's ready line, an observe. */
const QUICK_MS = 2000;
/** The row worlds' output bound per command (the smallest the configuration allows). */
const OUTPUT_BOUND = 64 * 1024;

const failed = new WeakSet<FaultContext>();

/** Waits until the target's join has failed with an error matching `why` (its Warning event says so). */
async function joinFailed(c: FaultContext, what: string, why: RegExp): Promise<void> {
  await until(
    what,
    async () =>
      (await eventsAbout(c.world)).some(
        (e) =>
          e.reason === 'InstanceSetupFailure' && e.message.includes(c.target.address) && why.test(e.message),
      ) || undefined,
    240_000,
    20,
  );
  failed.add(c);
}

/**
 * The target's SFTP server takes every request and answers none, from the start of its join until the
 * operator has given one up at its deadline (the status says so); then it answers again, and the join's
 * retry must finish the host with its full configuration.
 */
const silentSftp: FaultRow = {
  name: 'join: host silent mid-protocol (SFTP requests never answered)',
  phase: 'join',
  world: { hostLimits: { requestTimeoutMs: QUICK_MS } },
  inject: async (c) => {
    c.target.sim.faults.silentAt = 'sftp';
    await joinFailed(
      c,
      'the join to give up on the silent SFTP request',
      /SFTP .* got no answer within 2000 ms/,
    );
    delete c.target.sim.faults.silentAt;
  },
  fired: (c) => failed.has(c),
};

/**
 * The target's first command prints short lines without end: the operator stops reading at the output
 * bound, closes the channel, and the join's retry finishes the host.
 */
const endlessLines: FaultRow = {
  name: 'join: endless output (short lines) from the host',
  phase: 'join',
  world: { hostLimits: { maxOutputBytes: OUTPUT_BOUND } },
  inject: async (c) => {
    c.target.sim.faults.endlessOutput = 'lines';
    await joinFailed(
      c,
      'the join to fail at the output bound',
      /printed more than 65536 bytes for one command/,
    );
  },
  // The one-shot fault cleared itself when an exec took it, and the join failed naming the bound.
  fired: (c) => !('endlessOutput' in c.target.sim.faults) && failed.has(c),
};

export const HOST_FAULT_ROWS: readonly FaultRow[] = [silentSftp, endlessLines];
