import type { ServerChannel } from 'ssh2';
import { decodePowerShellCommand } from '@wmco/core/internal';
import { classifyExec } from './exec-handler.js';
import type { HostCosts } from './host-costs.js';
import { runCommand, type ExecReply, type HostShellContext } from './host-shell.js';
import { serveModuleSession } from './module-session-host.js';

/** What one exec needs of its host. */
export interface ExecHost {
  readonly shell: HostShellContext;
  readonly stats: {
    execs: number;
    openExecs: number;
    maxOpenExecs: number;
    floodsOpen: number;
    floodBytes: number;
  };
  readonly costs: HostCosts;
  /** Runs module sessions in a real PowerShell (the PowerShell engine); absent: the model answers them. */
  readonly sessions?: (channel: ServerChannel, script: string) => void;
}

/** Output, exit-status, EOF and CLOSE (ssh2 sends the last two on end()), after one latency. */
function answer(channel: ServerChannel, reply: ExecReply, costs: HostCosts): void {
  if (reply === undefined) return;
  const finish = (): void => {
    if (reply.stdout) channel.write(reply.stdout);
    if (reply.stderr) channel.stderr.write(reply.stderr);
    channel.exit(reply.code);
    channel.end();
  };
  if (costs.latencyMs > 0) setTimeout(finish, costs.latencyMs);
  else finish();
}

/**
 * One exec channel, as Windows OpenSSH runs a command: only the host module's invocations (plain, or with
 * the module on stdin) and `wmco hostcheck`'s capture (its script on stdin) read stdin up to the client's EOF; anything else ends at once, as sshd closes the channel when the
 * process exits, whether or not the client's stdin is still open.
 */
export function serveExec(channel: ServerChannel, command: string, host: ExecHost): void {
  const { stats } = host;
  stats.execs++;
  stats.openExecs++;
  stats.maxOpenExecs = Math.max(stats.maxOpenExecs, stats.openExecs);
  channel.once('close', () => stats.openExecs--);
  const plan = classifyExec(command, host.shell.model.defaultShell);
  if (plan.kind === 'session') {
    if (host.sessions) host.sessions(channel, decodePowerShellCommand(command) ?? '');
    else serveModuleSession(channel, plan, host).catch(() => channel.close());
    return;
  }
  const input: Buffer[] = [];
  channel.on('data', (d: Buffer) => input.push(d));
  const run = (stdin: string): void => {
    runCommand(host.shell, command, stdin)
      .then((reply) => answer(channel, reply, host.costs))
      .catch(() => channel.close());
  };
  if (plan.kind !== 'module' && plan.kind !== 'install' && plan.kind !== 'capture') {
    run('');
    return;
  }
  channel.on('end', () => run(Buffer.concat(input).toString('utf8')));
}
