import type { ServiceStartContext } from '../service-behaviour.js';
import { readKubeconfig, type KubeconfigCredentials } from './kubeconfig-file.js';
import { readKubeletConfig, type KubeletConfig } from './kubelet-config-file.js';
import { checkCredentialProviders } from './kubelet-credential-providers.js';
import { reusableClientCredentials } from './kubelet-credentials.js';
import { parseKubeletFlags, type KubeletFlags } from './kubelet-flags.js';
import type { NodeIdentity } from './node-object.js';

/** What a kubelet that passed its start checks will do. */
export interface KubeletPlan {
  readonly flags: KubeletFlags;
  readonly config: KubeletConfig;
  readonly identity: NodeIdentity;
  /**
   * `client`: a valid client certificate from --kubeconfig (no bootstrap); `bootstrap`: the
   * --bootstrap-kubeconfig credentials for a TLS bootstrap; `standalone`: no API server at all.
   */
  readonly credentials:
    | { readonly kind: 'client'; readonly creds: KubeconfigCredentials }
    | { readonly kind: 'bootstrap'; readonly creds: KubeconfigCredentials }
    | { readonly kind: 'standalone' };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export interface PlanDefaults {
  readonly kubeletVersion: string;
  readonly osImage: string;
}

function credentials(ctx: ServiceStartContext, flags: KubeletFlags): KubeletPlan['credentials'] {
  const reused = reusableClientCredentials(ctx.files, flags.kubeconfig);
  if (reused) return { kind: 'client', creds: reused };
  if (flags.bootstrapKubeconfig !== undefined) {
    const creds = readKubeconfig(ctx.files, flags.bootstrapKubeconfig);
    if (creds.token === undefined && creds.certPem === undefined)
      throw new Error(`${flags.bootstrapKubeconfig}: the user has neither a token nor a client certificate`);
    return { kind: 'bootstrap', creds };
  }
  if (flags.kubeconfig !== undefined) {
    const creds = readKubeconfig(ctx.files, flags.kubeconfig);
    if (creds.certPem === undefined && creds.token === undefined)
      throw new Error(`${flags.kubeconfig}: the user has neither a token nor a client certificate`);
    return { kind: 'client', creds };
  }
  return { kind: 'standalone' };
}

/**
 * `--hostname-override`, else the host name, trimmed and lower-cased (the kubelet's
 * `strings.ToLower(strings.TrimSpace(...))`); it must be a DNS-1123 subdomain.
 */
function nodeName(ctx: ServiceStartContext, flags: KubeletFlags): string {
  const name = (flags.hostnameOverride ?? ctx.host.hostname).trim().toLowerCase();
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name))
    throw new Error(`node name "${name}" is not a valid DNS-1123 subdomain (check --hostname-override)`);
  return name;
}

/**
 * The kubelet's start checks, in its order: flags, binary, --config (and its clientCAFile), node name and
 * IP, then the kubeconfigs. Throws an Error whose message is the reason the service fails.
 */
export function planKubelet(ctx: ServiceStartContext, d: PlanDefaults): KubeletPlan {
  const flags = parseKubeletFlags(ctx.argv);
  if (!ctx.files.isFile(flags.binary)) throw new Error(`binary not found: ${flags.binary}`);
  const config: KubeletConfig =
    flags.config !== undefined
      ? readKubeletConfig(ctx.files, flags.config)
      : { registerNode: true, registerWithTaints: [], clusterDNS: [] };
  // The kubelet registers its image credential plugins before it talks to the API server.
  if (flags.imageCredentialProviderConfig !== undefined)
    checkCredentialProviders(
      ctx.files,
      flags.imageCredentialProviderConfig,
      flags.imageCredentialProviderBinDir,
    );
  const name = nodeName(ctx, flags);
  const creds = credentials(ctx, flags);
  // The host model always has a primary IPv4 (WindowsModel.ipv4); --node-ip overrides it.
  const internalIp = flags.nodeIp ?? ctx.host.ipv4;
  return {
    flags,
    config,
    credentials: creds,
    identity: {
      name,
      internalIp,
      labels: flags.nodeLabels,
      taints: config.registerWithTaints,
      windowsBuild: `10.0.${ctx.host.osBuild}`,
      kubeletVersion: d.kubeletVersion,
      osImage: d.osImage,
      ...(flags.cloudProvider !== undefined ? { cloudProvider: flags.cloudProvider } : {}),
    },
  };
}
