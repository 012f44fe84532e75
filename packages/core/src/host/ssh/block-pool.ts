/**
 * Read blocks of uploads, reused: an upload reads its file in blocks of a few MB and sends each as slices
 * the SSH layer encrypts straight from (ADR 0029), so a block is free again once every slice of it was
 * acknowledged. Taking a free block instead of a new one keeps a join's hundreds of MB of reads off the
 * garbage collector's books, which counts every new block as external memory and marks the whole heap
 * again after each 64 MB of them. Free blocks are dropped after a short idle time, so an operator that is
 * not uploading does not hold them.
 */
export class BlockPool {
  private readonly free = new Map<number, Buffer[]>();
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxFreePerSize = 32,
    private readonly idleMs = 1000,
  ) {}

  /** A block of exactly `size` bytes, not zeroed: a free one when there is one. */
  take(size: number): Buffer {
    return this.free.get(size)?.pop() ?? Buffer.allocUnsafe(size);
  }

  /** Gives back a block nothing refers to any more (a slice still being sent must not be given back). */
  give(block: Buffer): void {
    const list = this.free.get(block.length) ?? [];
    if (list.length >= this.maxFreePerSize) return;
    list.push(block);
    this.free.set(block.length, list);
    this.idle?.refresh();
    this.idle ??= setTimeout(() => this.trim(), this.idleMs).unref();
  }

  /** Free blocks held (for tests and figures). */
  get freeBlocks(): number {
    let n = 0;
    for (const list of this.free.values()) n += list.length;
    return n;
  }

  /** Drops every free block. */
  trim(): void {
    this.free.clear();
    clearTimeout(this.idle);
    this.idle = undefined;
  }
}

/** The operator's pool: every upload of the process shares it. */
export const uploadBlocks = new BlockPool();
