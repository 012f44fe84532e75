/**
 * `wmco run` lost its leader Lease. The process must end, not linger: another replica leads now, and any
 * work still alive here (a timer, a watch, a retry) could act on a host beside it. main.ts exits on it.
 */
export class LeadershipLostError extends Error {
  constructor() {
    super(
      'lost the leader lease; stopped in-flight work and exiting so that a fresh process campaigns again',
    );
    this.name = 'LeadershipLostError';
  }
}

/** How long in-flight work gets to reach a safe point after the Lease is lost, before the exit. */
export const LOST_LEADERSHIP_STOP_MS = 10_000;
