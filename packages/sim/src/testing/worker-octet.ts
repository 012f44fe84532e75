import { threadId } from 'node:worker_threads';

/**
 * A number of this process and worker thread, for loopback addresses no other test running at the same time
 * uses. ava runs test files in worker threads of one process, each with its own module state: a number from
 * the process alone gave two files the same addresses, and a host that rebooted (its port 22 free for a
 * moment) could find that port taken by another file's host and never come back.
 */
export function workerNumber(): number {
  return process.pid * 64 + (threadId % 64);
}

/** An address octet (0-249) of this process and worker thread (workerNumber). */
export function workerOctet(): number {
  return workerNumber() % 250;
}

/**
 * Loopback addresses `127.<second>.<workerOctet>.<n>` for this worker thread's simulated VMs, `n` counting
 * from 2 to 250, then round again from 1.
 */
export function workerAddresses(second: number): () => string {
  let next = 1;
  return () => {
    next = next >= 250 ? 1 : next + 1;
    return `127.${second}.${workerOctet()}.${next}`;
  };
}
