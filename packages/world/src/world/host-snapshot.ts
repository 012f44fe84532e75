import { createHash } from 'node:crypto';
import type { WindowsModel } from '@wmco/sim';

/**
 * What a simulated Windows host holds, as plain data to compare before a join and after a removal: every
 * file and folder (content by SHA-256), services, machine environment variables, the Root store (with each
 * certificate's FriendlyName), firewall rules (with their Description), routes, HNS networks, Defender
 * exclusions, hostname and the volatile registry. Only what survives a restart is compared: the volatile
 * registry (the boot id the module keeps there) is cleared by the restart a revert needs, as on Windows.
 */
export interface HostSnapshot {
  readonly files: readonly string[];
  readonly services: readonly string[];
  readonly envVars: readonly string[];
  readonly rootCertificates: readonly string[];
  readonly firewallRules: readonly string[];
  readonly routes: readonly string[];
  readonly hnsNetworks: readonly string[];
  readonly defenderExclusions: readonly string[];
  readonly hostname: string;
}

const sha = (data: Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 16);

function files(m: WindowsModel): string[] {
  return m.files
    .descendants('C:\\')
    .map((p) => {
      const data = m.files.read(p);
      return data === undefined ? `${p.toLowerCase()}\\` : `${p.toLowerCase()} ${sha(data)}`;
    })
    .sort();
}

export function hostSnapshot(m: WindowsModel): HostSnapshot {
  return {
    files: files(m),
    services: m.scm
      .all()
      .map((s) => `${s.name} ${s.startType} ${s.commandLine}`)
      .sort(),
    envVars: [...m.envVars.values()].map((v) => `${v.name}=${v.value}`).sort(),
    rootCertificates: m.rootStore.thumbprints().map((t) => `${t} ${m.rootStore.get(t)?.friendlyName ?? ''}`),
    firewallRules: m.firewallRules
      .map((r) => `${r.name} ${r.protocol}/${r.localPort} ${r.direction} ${r.description ?? ''}`)
      .sort(),
    routes: m.routes.map((r) => `${r.destinationPrefix} via ${r.nextHop}`).sort(),
    hnsNetworks: m.hnsNetworks.map((n) => n.name).sort(),
    defenderExclusions: [...m.defenderExclusions].sort(),
    hostname: m.hostname,
  };
}
