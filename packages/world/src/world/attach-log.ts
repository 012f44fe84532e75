import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { once } from 'node:events';

/**
 * The operator's log in attach mode, one JSON line per entry, in a file that outlives the run: `--log-out
 * FILE`, else `operator.log` in a new directory under the system's temporary directory.
 */
export class OperatorLogFile {
  private constructor(
    readonly path: string,
    private readonly stream: WriteStream,
  ) {}

  static async open(path?: string): Promise<OperatorLogFile> {
    const file =
      path !== undefined
        ? resolve(path)
        : join(await mkdtemp(join(tmpdir(), 'wmco-attach-log-')), 'operator.log');
    const refused = (e: unknown): Error =>
      new Error(`--log-out ${file}: cannot write the operator's log: ${(e as Error).message}`, { cause: e });
    await mkdir(dirname(file), { recursive: true }).catch((e: unknown) => {
      throw refused(e);
    });
    const stream = createWriteStream(file, { flags: 'w', mode: 0o600 });
    // events.once rejects when 'error' comes first.
    await once(stream, 'open').catch((e: unknown) => {
      throw refused(e);
    });
    return new OperatorLogFile(file, stream);
  }

  /** A log sink: appends the line (pino hands over whole lines). */
  readonly write = (line: string): void => {
    if (!this.stream.writableEnded) this.stream.write(line.endsWith('\n') ? line : `${line}\n`);
  };

  /** Flushes and closes the file; later writes are dropped. */
  async close(): Promise<void> {
    if (this.stream.writableEnded) return;
    const closed = once(this.stream, 'close');
    this.stream.end();
    await closed;
  }

  /** The last `n` lines written (read back from the file: call after `close`). */
  async tail(n: number): Promise<string[]> {
    const text = await readFile(this.path, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .slice(-n);
  }
}
