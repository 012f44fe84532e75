import { join as joinPath } from 'node:path';
import type { HostSpec, ServiceScript } from './host-spec.js';
import { certificateThumbprints, TRUSTED_CA_BUNDLE_PATH, trustedCaBundle } from './ca-bundle.js';
import type { PayloadEntry } from './payload-manifest.js';
import { buildWindowsServices } from './windows-services.js';
import type { UploadFile } from '../host/windows-host.js';
import type { ClusterFacts } from './cluster-facts.js';
import { generatedFiles, type GeneratedFile } from './generated-files.js';
import { cloudNodeManagerFiles } from './cloud-node-manager-kubeconfig.js';
import { buildHostSpec } from './host-spec-builder.js';
import { kubeletCloudFiles } from './kubelet-cloud-files.js';
import { checkServiceNodeValues, resolveServices, scriptsFor, type HostScript } from './service-scripts.js';
import type { PersistentRoute } from '../provider/types/route.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import type { LogRotation } from './log-rotation.js';
import type { ServiceCapabilities } from './windows-services.js';
import type { MetadataRoutes } from '../provider/capabilities/metadata-routes.js';
import type { HostFile } from '../provider/types/payload-file.js';

/** The services whose network calls go through the cluster proxy: image pulls and the kubelet's own. */
export const PROXY_SERVICES = ['containerd', 'kubelet'] as const;

/**
 * What a Windows node must hold before anything is known about the host itself: every service with its
 * node variables and pre-scripts still in place, the generated files, the payload, the environment and
 * the routes. A plain value; `nodeHostSpec` turns it into the HostSpec of one node.
 */
export interface NodeDesign {
  /** Every service, in priority order, unresolved. */
  readonly services: readonly WindowsServiceSpec[];
  readonly generated: readonly GeneratedFile[];
  readonly payload: readonly PayloadEntry[];
  readonly envVars: Readonly<Record<string, string>>;
  readonly routes: readonly PersistentRoute[];
  /** Per-service environments (the cluster proxy of the services that use it), by service name. */
  readonly serviceEnvironment?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The certificates of `C:\k\ca-bundle.crt`, kept in the machine Root store (reference §1.10). */
  readonly rootCertificates?: HostSpec['rootCertificates'];
}

/** The parts of the operator's configuration a node's design depends on. */
export interface NodeDesignDeps {
  readonly payload: readonly PayloadEntry[];
  readonly capabilities: ServiceCapabilities & { readonly metadataRoutes?: MetadataRoutes | undefined };
  readonly providerFiles: readonly HostFile[];
  readonly debug: boolean;
  readonly logRotation: LogRotation;
  readonly proxyEnv: Readonly<Record<string, string>>;
}

/** The operator's design of a node, from its configuration and the cluster facts (pure). */
export function designNode(deps: NodeDesignDeps, facts: ClusterFacts): NodeDesign {
  // The cloud config and the credential provider config, with the kubelet flags that name them.
  const cloud = kubeletCloudFiles(deps.capabilities.imageCredentialProvider, facts);
  return {
    services: buildWindowsServices({
      apiServerInternalUrl: facts.apiServerInternalUrl,
      vxlanPort: facts.vxlanPort === '' ? undefined : facts.vxlanPort,
      // As upstream: the Linux workers' --cloud-provider (usually `external`) on the Windows kubelet too.
      cloudProvider: facts.cloudProvider,
      cloudConfigFile: cloud.cloudConfigFile,
      debug: deps.debug,
      logRotation: deps.logRotation,
      capabilities: { ...deps.capabilities, imageCredentialProvider: cloud.imageCredentialProvider },
    }),
    generated: generatedFiles(facts, [
      ...deps.providerFiles,
      ...cloud.files,
      ...cloudNodeManagerFiles(facts, deps.capabilities.cloudNodeManager !== undefined),
    ]),
    payload: deps.payload,
    ...proxyDesign(deps, facts),
    routes: deps.capabilities.metadataRoutes?.routes() ?? [],
    ...rootCertificateDesign(facts),
  };
}

/** The Root store follows `C:\k\ca-bundle.crt` (upstream's WICD imports its certificates; §1.10). */
function rootCertificateDesign(facts: ClusterFacts): Pick<NodeDesign, 'rootCertificates'> {
  if (facts.caBundle === undefined) return {};
  const { thumbprints } = certificateThumbprints(trustedCaBundle(facts.caBundle));
  return { rootCertificates: { bundle: TRUSTED_CA_BUNDLE_PATH, thumbprints } };
}

/**
 * Where the proxy goes. With a cluster Proxy object: into the `Environment` value of each service that
 * uses it, which the SCM reads at every service start, so a change needs a restart of those services,
 * not a reboot, and a cleared proxy removes them (ADR 0011). Without one (not OpenShift): the operator's
 * own proxy variables become machine variables, as upstream does (those need a reboot).
 */
function proxyDesign(
  deps: NodeDesignDeps,
  facts: ClusterFacts,
): Pick<NodeDesign, 'envVars' | 'serviceEnvironment'> {
  if (facts.proxy === undefined) return { envVars: deps.proxyEnv };
  const proxy = facts.proxy;
  return {
    envVars: {},
    serviceEnvironment: Object.fromEntries(PROXY_SERVICES.map((name) => [name, proxy])),
  };
}

/**
 * The HostSpec with only `services` of the design (a join round brings services up level by level):
 * node variables filled from `node` (absent before the Node exists), pre-script values from `values`.
 */
export function hostSpecWith(
  design: NodeDesign,
  services: readonly WindowsServiceSpec[],
  values: Readonly<Record<string, string>>,
  node?: unknown,
): HostSpec {
  // Every node value of the whole design is typed as soon as there is a Node, so a hostile value stops
  // the round before its observe: not even the services of earlier levels start with it around.
  if (node !== undefined) checkServiceNodeValues(design.services, node);
  return buildHostSpec({
    payload: design.payload,
    generated: design.generated,
    services: resolveServices(services, values, node),
    envVars: design.envVars,
    routes: design.routes,
    ...(design.serviceEnvironment ? { serviceEnvironment: design.serviceEnvironment } : {}),
    ...(design.rootCertificates ? { rootCertificates: design.rootCertificates } : {}),
    serviceScripts: effectScripts(services, node),
  });
}

/** The pre-scripts run for their effect, by service: `plan()` runs them in the apply before each start. */
function effectScripts(
  services: readonly WindowsServiceSpec[],
  node: unknown,
): Record<string, ServiceScript[]> {
  const out: Record<string, ServiceScript[]> = {};
  for (const svc of services) {
    const scripts = scriptsFor([svc], node).filter((s) => s.variable === undefined);
    if (scripts.length > 0)
      out[svc.name] = scripts.map(({ name, script, args }) => ({ name, script, ...(args ? { args } : {}) }));
  }
  return out;
}

/** The HostSpec of a Ready node: every service, resolved for this Node and these pre-script values. */
export function nodeHostSpec(
  design: NodeDesign,
  values: Readonly<Record<string, string>>,
  node: unknown,
): HostSpec {
  return hostSpecWith(design, design.services, values, node);
}

/** Every pre-script of a Ready node's services (value scripts and those run for their effect). */
export function nodeScripts(design: NodeDesign, node: unknown): HostScript[] {
  return scriptsFor(design.services, node);
}

/**
 * Only the scripts that yield a value (NODE_IP, HOSTNAME_OVERRIDE). Scripts run for their effect
 * (network-conf.ps1 rewrites kube-proxy's configuration, the Defender exclusion) are left out, so an
 * observe with these changes nothing on the host.
 */
export function variableScripts(scripts: readonly HostScript[]): HostScript[] {
  return scripts.filter((s) => s.variable !== undefined);
}

/** Where the bytes of each file of the design come from, by SHA-256, for uploads. */
export function designContent(
  design: NodeDesign,
  payloadDir: string,
): (sha256: string) => UploadFile['source'] {
  const bySha = new Map<string, UploadFile['source']>(design.generated.map((g) => [g.sha256, g.content]));
  for (const p of design.payload) {
    // Upstream's layout: the compressed file is sent as it is and extracted (and hash-checked) on the host.
    const localPath = joinPath(payloadDir, p.source);
    bySha.set(p.sha256, p.compressed ? { localPath, format: 'tar.gz' } : { localPath });
  }
  return (sha) => {
    const source = bySha.get(sha);
    if (!source) throw new Error(`no content for file ${sha}: it is neither generated nor in the payload`);
    return source;
  };
}
