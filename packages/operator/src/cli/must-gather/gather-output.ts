import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { stringify } from 'yaml';

/**
 * The must-gather folder: every file is written under `root` (a path that would leave it is refused), and
 * each collection step records what it wrote or why it could not, in `gather.log`.
 */
export class GatherOutput {
  private readonly log: string[] = [];
  readonly written: string[] = [];

  constructor(readonly root: string) {}

  private path(rel: string): string {
    const full = resolve(this.root, rel);
    const inside = relative(resolve(this.root), full);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) {
      throw new Error(`refusing to write outside ${this.root}: ${rel}`);
    }
    return full;
  }

  async file(rel: string, data: string | Buffer): Promise<void> {
    const full = this.path(rel);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, data);
    this.written.push(rel);
  }

  /** A Kubernetes object (or list) as YAML. */
  async yaml(rel: string, value: unknown): Promise<void> {
    await this.file(rel, stringify(value, { aliasDuplicateObjects: false }));
  }

  note(line: string): void {
    this.log.push(`${new Date().toISOString()} ${line}`);
  }

  /** Writes `gather.log` (what was collected, what failed and why). */
  async finish(): Promise<void> {
    await this.file('gather.log', `${this.log.join('\n')}\n`);
  }

  static join(...parts: string[]): string {
    return join(...parts);
  }
}
