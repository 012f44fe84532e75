/**
 * The V8 flags the operator image's entrypoint gives node (Containerfile `ENTRYPOINT`), and with which
 * `pnpm bench scale` starts its operator process, so that the bench measures what the image runs (a test
 * checks the Containerfile against this list).
 *
 * `--optimize-for-size`: V8 trades some speed for memory (smaller heap growth steps, more aggressive
 * memory reduction, less code kept). Measured with `pnpm bench scale --nodes 100 --drift-interval 2` on
 * the 2-core development machine: operator RSS 441-449 MiB without it (of which the V8 heap 202 MiB, only
 * 82 MiB of it live), 189 MiB with it (heap 69 MiB, 62 MiB live); CPU per drift cycle 0.28-0.30 s → 0.41 s.
 * No cap on the old space (`--max-old-space-size`): the heap stays small without one (64 MiB used at 1,000
 * nodes), and a cap turns growth into a crash loop. ADR 0025.
 */
export const OPERATOR_NODE_FLAGS: readonly string[] = ['--optimize-for-size'];

/**
 * glibc malloc settings of the operator image (Containerfile `ENV`), also given to `pnpm bench scale`'s
 * operator process. At 1,000 nodes, with the V8 heap small, a third of the RSS was malloc's: its main
 * heap (59 MiB, kept after the peak of 50 joins at once) and per-thread arenas (about 28 MiB, V8's and
 * libuv's threads). Two arenas, and fixed trim and mmap thresholds (glibc's
 * dynamic threshold grows after the first large free, after which large buffers stay in the heap), let
 * freed memory go back to the system: 218 → 192 MiB at 1,000 nodes. ADR 0025.
 */
export const OPERATOR_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};
