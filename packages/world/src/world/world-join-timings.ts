import type { JoinTimings } from '@wmco/core/internal';

/** The join's waits in a simulated world: a minute for the Node, polled every `pollMs` (default 100 ms). */
export const joinTimings = (pollMs = 100): JoinTimings => ({
  nodeRegistrationMs: 60_000,
  nodeReadyMs: 60_000,
  pollMs,
  keyRetryMs: 500,
});
