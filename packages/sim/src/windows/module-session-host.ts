import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerChannel } from 'ssh2';
import { SESSION_READY_MARKER, SESSION_RESULT_PREFIX } from '@wmco/core/internal';
import type { ExecHost } from './exec-session.js';
import { streamEndlessOutput } from './endless-output.js';
import { isSilentAt } from './host-faults.js';
import { runModule, workAreaRefusedReply, type ExecReply } from './host-shell.js';
import { installModuleLine, scriptThrew, sessionModuleCheck } from './module-check.js';

/** Lines of a channel's stdin, handed out one at a time; undefined at EOF. */
class StdinLines {
  private buffered = '';
  private readonly lines: string[] = [];
  private eof = false;
  private wake: (() => void) | undefined;

  constructor(channel: ServerChannel) {
    channel.on('data', (d: Buffer) => {
      this.buffered += d.toString('utf8');
      let cut: number;
      while ((cut = this.buffered.indexOf('\n')) >= 0) {
        this.lines.push(this.buffered.slice(0, cut).replace(/\r$/, ''));
        this.buffered = this.buffered.slice(cut + 1);
      }
      this.wake?.();
    });
    const done = (): void => {
      this.eof = true;
      this.wake?.();
    };
    channel.on('end', done);
    channel.on('close', done);
  }

  async next(): Promise<string | undefined> {
    while (this.lines.length === 0 && !this.eof) await new Promise<void>((r) => (this.wake = r));
    this.wake = undefined;
    return this.lines.shift();
  }
}

/** The session's start: the module from stdin (first contact) or from its file, checked; an error reply otherwise. */
async function loadModule(
  host: ExecHost,
  plan: { readonly modulePath: string; readonly sha256: string; readonly install: boolean },
  stdin: StdinLines,
): Promise<ExecReply> {
  if (!plan.install) return sessionModuleCheck(host.shell, plan.modulePath, plan.sha256);
  const line = await stdin.next();
  if (line === undefined) return scriptThrew('stdin closed before the module arrived');
  const model = host.shell.model;
  return (
    installModuleLine(host.shell, plan, line, () => workAreaRefusedReply(model)) ??
    sessionModuleCheck(host.shell, plan.modulePath, plan.sha256)
  );
}

/** One request of the session: true to go on reading, false when the host stopped answering (hung, down). */
async function answer(
  channel: ServerChannel,
  host: ExecHost,
  line: string,
  isOpen: () => boolean,
): Promise<boolean> {
  const { shell, costs } = host;
  const faults = shell.faults();
  if (faults.hangNextCommand) {
    delete faults.hangNextCommand;
    return false;
  }
  if (faults.silent === true || isSilentAt(faults, 'command')) return false;
  const shape = faults.endlessOutput || faults.endlessOutputAlways;
  if (shape) {
    delete faults.endlessOutput;
    host.stats.floodsOpen++;
    channel.once('close', () => host.stats.floodsOpen--);
    streamEndlessOutput(channel, shape, (bytes) => (host.stats.floodBytes += bytes));
    return false;
  }
  const result = await runModule(shell, line);
  if (result === undefined) return false;
  if (costs.latencyMs > 0) await sleep(costs.latencyMs);
  if (!isOpen()) return false;
  channel.write(`${SESSION_RESULT_PREFIX}${JSON.stringify(result)}\r\n`);
  return true;
}

/**
 * hostSessionScript on the model: powershell.exe starts (its cost paid while stdin may already be
 * arriving), loads the module, prints the ready line, then answers each request line with one result
 * line, in order, until the client closes stdin; then it exits 0. A request that hangs or takes the
 * host down is never answered.
 */
export async function serveModuleSession(
  channel: ServerChannel,
  plan: { readonly modulePath: string; readonly sha256: string; readonly install: boolean },
  host: ExecHost,
): Promise<void> {
  const stdin = new StdinLines(channel);
  let open = true;
  channel.once('close', () => (open = false));
  host.shell.stats.powershellStarts++;
  if (host.costs.powershellStartMs > 0) await sleep(host.costs.powershellStartMs);
  const refused = await loadModule(host, plan, stdin);
  if (refused) {
    if (refused.stdout) channel.write(refused.stdout);
    if (refused.stderr) channel.stderr.write(refused.stderr);
    channel.exit(refused.code);
    channel.end();
    return;
  }
  channel.write(`${SESSION_READY_MARKER}\r\n`);
  for (let line = await stdin.next(); line !== undefined; line = await stdin.next()) {
    if (!open) return;
    if (line.trim() !== '' && !(await answer(channel, host, line, () => open))) return;
  }
  if (!open) return;
  channel.exit(0);
  channel.end();
}
