/**
 * The V8 flags the operator image's entrypoint gives node (Containerfile `ENTRYPOINT`), and with which
 * `pnpm bench scale` starts its operator process, so that the bench measures what the image runs (a test
 * checks the Containerfile against this list).
 *
 * `--optimize-for-size`: V8 trades some speed for memory (smaller heap growth steps, more aggressive
 * memory reduction, less code kept). Measured with `pnpm bench scale --nodes 100 --drift-interval 2` on
 * the 2-core development machine: operator RSS 441-449 MiB without it (of which the V8 heap 202 MiB, only
 * 82 MiB of it live), 189 MiB with it (heap 69 MiB, 62 MiB live); CPU per drift cycle 0.28-0.30 s → 0.41 s.
 * A cap on the old space (`--max-old-space-size`) is not used: it once crashed ssh2's native AES-GCM binding
 * (docs/architecture.md), and the operator's heap stays small without it. ADR 0025.
 */
export const OPERATOR_NODE_FLAGS: readonly string[] = ['--optimize-for-size'];
