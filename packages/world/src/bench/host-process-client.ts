import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { reapOnExit } from './child-reaper.js';
import { IpcRequester } from './ipc-requester.js';
import {
  HostMessage,
  HostSnapshot,
  ProcessUsage,
  parseMessage,
  type HostProcessTask,
  type HostQuestion,
} from './host-process-protocol.js';

/** A simulated host as the world process knows it once its process is ready. */
export interface RemoteHost {
  readonly address: string;
  readonly port: number;
  readonly hostname: string;
}

type Ready = Extract<HostMessage, { event: 'ready' }>;

/** Resolves with the process's `ready` message; rejects with its `failed` error or when it exits first. */
function started(child: ChildProcess, label: string): Promise<Ready> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null, signal: string | null): void =>
      reject(new Error(`${label} exited before it was ready (${signal ?? `exit ${String(code)}`})`));
    const first = (m: unknown): void => {
      const msg = parseMessage(HostMessage, m);
      if (msg instanceof Error || !('event' in msg)) return;
      child.off('message', first);
      child.off('exit', exited);
      if (msg.event === 'ready') resolve(msg);
      else reject(new Error(`${label} failed to start: ${msg.error}`));
    };
    child.on('message', first);
    child.once('exit', exited);
  });
}

/** One process of simulated hosts (host-process.ts), driven over IPC. */
export class HostProcess {
  private readonly exited: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly requester: IpcRequester,
    readonly hosts: readonly RemoteHost[],
  ) {
    this.exited = child.exitCode !== null ? Promise.resolve() : once(child, 'exit');
  }

  /** Starts the process with `nodeOptions` (V8 flags); once its hosts listen, resolves. */
  static async start(task: HostProcessTask, nodeOptions: readonly string[] = []): Promise<HostProcess> {
    const entry = fileURLToPath(new URL('./host-process.js', import.meta.url));
    const child = spawn(process.execPath, [...nodeOptions, entry, JSON.stringify(task)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    reapOnExit(child);
    const label = `the host process of ${task.hostnames.join(', ')}`;
    const requester = new IpcRequester(child, label);
    child.on('message', (m: unknown) => {
      const msg = parseMessage(HostMessage, m);
      if (!(msg instanceof Error) && 'id' in msg) requester.answer(msg);
    });
    try {
      return new HostProcess(child, requester, (await started(child, label)).hosts);
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Each named host's counters and running services now. */
  async snapshots(addresses: readonly string[]): Promise<HostSnapshot[]> {
    return HostSnapshot.array().parse(await this.ask({ op: 'hosts', addresses: [...addresses] }));
  }

  /** The addresses of this process's hosts whose file at `path` holds `text`. */
  async containing(path: string, text: string): Promise<string[]> {
    const answer = await this.ask({ op: 'containing', path, text });
    if (!Array.isArray(answer) || !answer.every((a) => typeof a === 'string'))
      throw new Error('the host process answered the file question with something else than addresses');
    return answer;
  }

  /** The process's CPU seconds, peak RSS and event loop time since it started. */
  async usage(): Promise<ProcessUsage> {
    return ProcessUsage.parse(await this.ask({ op: 'usage' }));
  }

  private ask(q: HostQuestion): Promise<unknown> {
    return this.requester.request(q);
  }

  /** SIGTERM (the hosts close their servers), SIGKILL after 10 s; resolves once it exited. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    this.child.kill('SIGTERM');
    await this.exited;
    clearTimeout(timer);
  }
}
