import { createHash } from 'node:crypto';
import type { SimulatedWindowsHost } from '@wmco/sim';

/** What a host holds that a join writes: every file and folder path, every service with its settings. */
export interface HostConfiguration {
  readonly paths: readonly string[];
  readonly services: readonly string[];
}

/** Log files grow on their own (service logs, rotation): their names are not configuration. */
const VOLATILE = /\\var\\log\\|\.log(\.\d+)?$/i;
/**
 * Files whose content is the node's own (its kubelet's keys and certificates, its kubeconfig with them,
 * kube-proxy's configuration with its own source VIP): compared by presence only.
 */
const OWN_CONTENT = /\\var\\lib\\kubelet\\pki\\|\\k\\kubeconfig$|\\k\\kube-proxy\.conf$/i;

/** Every folder (with a trailing `\\`) and file below `path`, each file with what `content` makes of it. */
function walk(
  sim: SimulatedWindowsHost,
  path: string,
  content: (data: Buffer) => string,
  out: string[],
): void {
  for (const e of sim.model.files.list(path)) {
    if (!e.directory) out.push(`${e.path}\t${content(sim.model.files.read(e.path) ?? Buffer.alloc(0))}`);
    else {
      out.push(`${e.path}\\`);
      walk(sim, e.path, content, out);
    }
  }
}

/**
 * The host's configuration with what differs between two hosts by nature (hostname, address, node name)
 * replaced by `<host>`, so two hosts joined the same way compare equal, and a host missing a file, holding a
 * leftover (a staged or half-written file), or with a service set differently does not.
 */
export function hostConfiguration(sim: SimulatedWindowsHost, ...names: readonly string[]): HostConfiguration {
  const own = names.filter((n) => n !== '').sort((a, b) => b.length - a.length);
  const norm = (s: string): string =>
    own.reduce((acc, n) => acc.split(n.toLowerCase()).join('<host>'), s.toLowerCase());
  // A file's content, with the host's own names replaced, hashed: equal files on two hosts compare equal.
  const content = (data: Buffer): string =>
    createHash('sha256')
      .update(norm(data.toString('latin1')))
      .digest('hex')
      .slice(0, 16);
  const paths: string[] = [];
  walk(sim, 'C:\\', content, paths);
  const services = sim.model.scm
    .all()
    .map(
      (s) =>
        `${s.name} ${s.startType} ${s.state} deps=${s.dependencies.join(',')} ${norm(s.commandLine)} env=${norm((s.environment ?? []).join(';'))}`,
    );
  return {
    paths: paths
      .filter((p) => !VOLATILE.test(p.split('\t')[0] ?? p))
      .map((p) => {
        const [path = '', hash] = p.split('\t');
        return hash === undefined || OWN_CONTENT.test(path) ? norm(path) : `${norm(path)} ${hash}`;
      })
      .sort(),
    services: services.sort(),
  };
}
