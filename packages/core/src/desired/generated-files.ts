import { createHash } from 'node:crypto';
import { bootstrapKubeconfig } from './bootstrap-kubeconfig.js';
import { TRUSTED_CA_BUNDLE_PATH, trustedCaBundle } from './ca-bundle.js';
import { containerdConfig } from './containerd-config.js';
import { hostsTomlFiles } from './hosts-toml.js';
import { kubeletConfiguration } from './kubelet-config.js';
import { mergedMirrorSets } from './mirror-sets.js';
import { networkConfigScript } from './network-script.js';
import { parsePullSecret } from './pull-secret.js';
import type { HostFile } from '../provider/types/payload-file.js';
import type { ClusterFacts } from './cluster-facts.js';
import { EXPORTER_TLS_FILES } from './exporter-tls-files.js';

/** A file the operator generates for a host, with its content. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: Buffer;
  readonly sha256: string;
}

export const REGISTRIES_DIR = 'C:\\k\\containerd\\registries';

function file(path: string, text: string): GeneratedFile {
  const content = Buffer.from(text, 'utf8');
  return { path, content, sha256: createHash('sha256').update(content).digest('hex') };
}

/**
 * The files the operator writes from cluster facts (reference §1.6 step 2–5, §1.14, §1.15, §1.17):
 * kubelet config and bootstrap kubeconfig, the CAs, containerd's config, one `hosts.toml` per mirrored
 * registry, kube-proxy's network script, and the platform's script files (hostname override).
 */
export function generatedFiles(
  facts: ClusterFacts,
  providerFiles: readonly HostFile[] = [],
): GeneratedFile[] {
  const creds = facts.pullSecret === undefined ? undefined : parsePullSecret(facts.pullSecret);
  const mirrors = hostsTomlFiles(mergedMirrorSets(facts.digestMirrors, facts.tagMirrors), creds);
  return [
    file('C:\\k\\kubelet.conf', kubeletConfiguration(facts.serviceCidr)),
    file(
      'C:\\k\\bootstrap-kubeconfig',
      bootstrapKubeconfig(
        { 'ca.crt': Buffer.from(facts.bootstrap.caCrt), token: Buffer.from(facts.bootstrap.token) },
        facts.apiServerInternalUrl,
      ),
    ),
    file('C:\\k\\bootstrap-ca.crt', facts.bootstrap.caCrt),
    file('C:\\k\\kubelet-ca.crt', facts.kubeletCaPem),
    file('C:\\k\\containerd\\containerd_conf.toml', containerdConfig()),
    file('C:\\Temp\\network-conf.ps1', networkConfigScript({ serviceCidr: facts.serviceCidr })),
    ...(facts.caBundle ? [file(TRUSTED_CA_BUNDLE_PATH, trustedCaBundle(facts.caBundle))] : []),
    // windows_exporter's serving certificate, where its web config points (reference §1.6 step 3).
    ...(facts.exporterTls
      ? [
          file(EXPORTER_TLS_FILES.cert, facts.exporterTls.cert),
          file(EXPORTER_TLS_FILES.key, facts.exporterTls.key),
        ]
      : []),
    ...mirrors.map((m) => file(`${REGISTRIES_DIR}\\${m.directory}\\hosts.toml`, m.content)),
    ...providerFiles.map((f) => file(f.path, f.content)),
  ];
}
