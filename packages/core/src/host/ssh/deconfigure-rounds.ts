import { HostCommandTimeoutError, HostOperationError, HostUnreachableError } from '../errors.js';
import type { HostAction } from '../protocol/index.js';
import type { ChangeOutcome } from '../windows-host.js';

/** What one `deconfigure` call answered: its actions, and whether it stopped after removing an HNS network. */
export interface DeconfigureRound {
  readonly done: readonly HostAction[];
  readonly rebootRequired: boolean;
  /** The call that finished scheduled the restart the revert needs (`rebootWhenRequired`). */
  readonly rebootScheduled?: boolean;
  readonly reconnect: boolean;
}

export interface DeconfigureRoundsDeps {
  readonly address: string;
  /** The most calls to make: one per HNS network of the request, plus the one that finishes. */
  readonly rounds: number;
  /** Sends the deconfigure request once (on the current connection, or a new one). */
  readonly call: () => Promise<DeconfigureRound>;
  /** Drops the connection, so the next call connects again. */
  readonly reconnect: () => Promise<void>;
  /** True once the caller gave up (an abandoned connect is then no reason to try again). */
  readonly stopped: () => boolean;
}

/** The connection went away under the call: the answer is lost, the host may have done the work. */
function connectionLost(err: unknown): boolean {
  return err instanceof HostUnreachableError || err instanceof HostCommandTimeoutError;
}

/**
 * Deconfigure in rounds (upstream `RemoveFilesAndNetworks`): the module removes one HNS network per call,
 * which re-plumbs the host's NIC and can drop the SSH session, so after each such call, or a call whose
 * connection dropped before it answered, this reconnects and sends the same request again (every part of it
 * is idempotent). The actions of every round are reported together; an answer lost with its connection
 * loses its actions, not the work.
 */
export async function deconfigureInRounds(deps: DeconfigureRoundsDeps): Promise<ChangeOutcome> {
  const done: HostAction[] = [];
  let rebootRequired = false;
  for (let round = 1; ; round++) {
    let result: DeconfigureRound;
    try {
      result = await deps.call();
    } catch (err) {
      if (round >= deps.rounds || !connectionLost(err) || deps.stopped()) throw err;
      await deps.reconnect();
      continue;
    }
    done.push(...result.done);
    rebootRequired ||= result.rebootRequired;
    if (!result.reconnect)
      return { done, rebootRequired, ...(result.rebootScheduled === true ? { rebootScheduled: true } : {}) };
    if (round >= deps.rounds) {
      throw new HostOperationError(
        deps.address,
        'deconfigure',
        `HNS networks were still being removed after ${deps.rounds} calls`,
      );
    }
    await deps.reconnect();
  }
}
