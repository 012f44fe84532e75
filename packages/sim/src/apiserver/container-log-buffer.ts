import type { ContainerLog } from './pod-logs.js';

/**
 * A simulated container's output kept in memory (the last `maxBytes`, as the kubelet's rotated log keeps
 * only the newest part), with listeners for `kubectl logs -f`.
 */
export class ContainerLogBuffer implements ContainerLog {
  private buf = '';
  private readonly listeners = new Set<(chunk: string) => void>();

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  /** Appends one write (a line gets its newline). */
  readonly write = (chunk: string): void => {
    const text = chunk.endsWith('\n') ? chunk : `${chunk}\n`;
    this.buf += text;
    if (this.buf.length > this.maxBytes)
      this.buf = this.buf.slice(this.buf.indexOf('\n', this.buf.length - this.maxBytes) + 1);
    this.listeners.forEach((l) => l(text));
  };

  /** How many `follow` streams are listening. */
  get followers(): number {
    return this.listeners.size;
  }

  text(): string {
    return this.buf;
  }

  subscribe(onChunk: (chunk: string) => void): () => void {
    this.listeners.add(onChunk);
    return () => this.listeners.delete(onChunk);
  }
}
