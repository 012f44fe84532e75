import { threadId } from 'node:worker_threads';

/**
 * An address octet (0-249) of this process and worker thread, for loopback addresses no other test running
 * at the same time uses. ava runs test files in worker threads of one process, each with its own module
 * state: an octet from the process alone gave two files the same addresses, and a host that rebooted (its
 * port 22 free for a moment) could find that port taken by another file's host and never come back.
 */
export function workerOctet(): number {
  return (process.pid * 64 + (threadId % 64)) % 250;
}
