import type { CoreV1Api, CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import {
  Labels,
  PRIVATE_KEY_FIELD,
  SERVICES_CONFIGMAP_PREFIX,
  describeApiError,
  generatedFiles,
  isNotFound,
  kubeletCloudFiles,
  readClusterFacts,
  type ClusterFacts,
  type NodeDesign,
  platformParts,
  type PlatformParts,
} from '@wmco/core/internal';
import { createWmcoCore, parseServicesData } from '@wmco/core';
import { type DependencyContainer, type WmcoProvider } from '@wmco/core/provider';

export interface PlanSource {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly namespace: string;
  readonly privateKeySecret: string;
  readonly payloadDir: string;
  readonly container: DependencyContainer;
  readonly providers: readonly WmcoProvider[];
}

/** A node asked for by name that cannot be planned, with the reason. */
export interface NodeProblem {
  readonly node: string;
  readonly error: string;
}

/** The BYOH nodes: those named (each checked), or every node labelled `byoh=true`. */
export async function byohNodes(
  core: CoreV1Api,
  names: readonly string[],
): Promise<{ nodes: V1Node[]; problems: NodeProblem[] }> {
  if (names.length === 0) {
    const list = await core.listNode({ labelSelector: `${Labels.byoh}=true` });
    return { nodes: list.items, problems: [] };
  }
  const nodes: V1Node[] = [];
  const problems: NodeProblem[] = [];
  for (const name of names) {
    const node = await core.readNode({ name }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw new Error(`cannot read node ${name}: ${describeApiError(err)}`, { cause: err });
    });
    if (!node) problems.push({ node: name, error: 'no such node' });
    else if (node.metadata?.labels?.[Labels.byoh] !== 'true')
      problems.push({ node: name, error: `not a BYOH node (no label ${Labels.byoh}=true)` });
    else nodes.push(node);
  }
  return { nodes, problems };
}

/** The operator's private key (Secret `cloud-private-key`, key `private-key.pem`). */
export async function readPrivateKey(s: PlanSource): Promise<string> {
  const what = `Secret ${s.namespace}/${s.privateKeySecret}`;
  const secret = await s.core
    .readNamespacedSecret({ name: s.privateKeySecret, namespace: s.namespace })
    .catch((err: unknown) => {
      throw new Error(`cannot read ${what}: ${describeApiError(err)}`, { cause: err });
    });
  const data = secret.data?.[PRIVATE_KEY_FIELD];
  if (data === undefined) throw new Error(`${what} has no ${PRIVATE_KEY_FIELD}`);
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * What the operator of a given version installs on a node. The services and the node's environment come
 * from `windows-services-<version>`, the record the operator publishes, so the plan uses the operator's
 * own settings (debug, log rotation, proxy) rather than guessing them; files come from the cluster facts,
 * the payload and the platform's provider, as in the operator.
 */
export class DesignSource {
  private readonly byVersion = new Map<string, Promise<NodeDesign>>();

  private constructor(
    private readonly s: PlanSource,
    private readonly facts: ClusterFacts,
    private readonly parts: PlatformParts,
  ) {}

  static async load(s: PlanSource): Promise<DesignSource> {
    const facts = await readClusterFacts(s.core, s.custom, s.namespace).catch((err: unknown) => {
      throw new Error(`cannot read the cluster configuration: ${describeApiError(err)}`, { cause: err });
    });
    const wmco = createWmcoCore({ parent: s.container, providers: s.providers, platform: facts.platform });
    const parts = await platformParts(wmco, s.payloadDir);
    return new DesignSource(s, facts, parts);
  }

  /** What the Machine source takes from the platform's provider (MachineAccess, UserDataFormat, HostRename). */
  get machineParts(): PlatformParts['machines'] {
    return this.parts.machines;
  }

  design(version: string): Promise<NodeDesign> {
    let d = this.byVersion.get(version);
    if (!d) {
      d = this.read(version);
      this.byVersion.set(version, d);
    }
    return d;
  }

  private async read(version: string): Promise<NodeDesign> {
    const name = `${SERVICES_CONFIGMAP_PREFIX}${version}`;
    const cm = await this.s.core
      .readNamespacedConfigMap({ name, namespace: this.s.namespace })
      .catch((err: unknown) => {
        const why = isNotFound(err) ? 'not found' : describeApiError(err);
        throw new Error(`cannot read the services ConfigMap ${this.s.namespace}/${name}: ${why}`, {
          cause: err,
        });
      });
    const data = parseServicesData(cm.data ?? {});
    return {
      services: data.services,
      // As the operator: the cloud config and the credential provider config from the workers' ignition.
      generated: generatedFiles(this.facts, [
        ...this.parts.providerFiles,
        ...kubeletCloudFiles(this.parts.capabilities.imageCredentialProvider, this.facts).files,
      ]),
      payload: this.parts.payload,
      envVars: data.environmentVars ?? {},
      routes: this.parts.capabilities.metadataRoutes?.routes() ?? [],
    };
  }
}
