import { flagValue } from './command-line.js';
import type { FileSystem } from './file-system.js';
import type { ServiceBehaviour, ServiceRun, ServiceStartContext } from './service-behaviour.js';

/**
 * The flags a node service names its own log file with, as the operator's command lines use them:
 * kube-log-runner `-log-file=` (kubelet, kube-proxy, and every service when rotation is set), containerd
 * `--log-file`, hybrid-overlay-node `--logfile`, csi-proxy `-log_file=`, windows_exporter `--log.file`.
 */
const LOG_FLAGS = ['-log-file', '--log-file', '--logfile', '-log_file', '--log.file'] as const;

/** The file a service's process writes its log to, from its command line; undefined when it names none. */
export function serviceLogFile(argv: readonly string[]): string | undefined {
  for (const flag of LOG_FLAGS) {
    const value = flagValue(argv, flag);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** klog's header (`Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`), which every node service writes. */
export function klogLine(severity: 'I' | 'E', service: string, message: string, now = new Date()): string {
  const date = `${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const time = `${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}`;
  const micros = String(now.getUTCMilliseconds() * 1000).padStart(6, '0');
  return `${severity}${date} ${time}.${micros}    4242 ${service}.go:1] ${JSON.stringify(message)}\n`;
}

/**
 * Appends a line to the log file, as the process does (append mode). Like a real process, it writes
 * nothing when the folder is missing (the open fails); it never creates folders.
 */
export function appendServiceLog(files: FileSystem, path: string, line: string): void {
  const slash = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
  if (slash <= 0 || !files.isDirectory(path.slice(0, slash))) return;
  const before = files.read(path) ?? Buffer.alloc(0);
  files.write(path, Buffer.concat([before, Buffer.from(line)]));
}

/**
 * Wraps a behaviour so the service writes its log file the way the real binaries do: a start line when
 * it runs, the reason when its start fails, a stop line when it stops. The file is the one its command
 * line names (`serviceLogFile`); a service that names none writes nothing.
 */
export function withServiceLog(inner: ServiceBehaviour): ServiceBehaviour {
  return {
    async start(ctx: ServiceStartContext): Promise<ServiceRun> {
      const file = serviceLogFile(ctx.argv);
      const log = (severity: 'I' | 'E', message: string): void => {
        if (file !== undefined) appendServiceLog(ctx.files, file, klogLine(severity, ctx.name, message));
      };
      log('I', `Starting ${ctx.name}: ${ctx.commandLine}`);
      const run = await inner.start(ctx);
      if (run.state === 'failed') log('E', `${ctx.name} failed to start: ${run.reason}`);
      if (run.state === 'running') {
        log('I', `${ctx.name} is running`);
        ctx.signal.addEventListener('abort', () => log('I', `${ctx.name} stopping`), { once: true });
      }
      return run;
    },
  };
}
