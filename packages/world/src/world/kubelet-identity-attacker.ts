import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** What a compromised node writes on its own Node. */
export interface ForgedNode {
  /** Its owner (instance-address) annotation. */
  readonly owner?: string;
  /** The InternalIP its kubelet reports (the kubelet restarted with this `--node-ip`). */
  readonly internalIp?: string;
  /** Any other annotations (e.g. the cloud-applied-tags list). */
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * A compromised Windows node (issue 27): whoever holds the host holds its kubelet's client certificate, so
 * it can write its own Node, annotations and status included, and nothing else. Here the annotation is
 * written with a client whose identity is exactly the kubelet's (`system:node:<name>` in
 * `system:nodes`), and the address by restarting the host's kubelet with another `--node-ip`, as an
 * administrator of that host could: the kubelet then reports it in every status update.
 */
export class KubeletIdentityAttacker {
  constructor(
    private readonly world: SimWorld,
    /** Index of the compromised host in `world.hosts`. */
    private readonly host: number,
    private readonly nodeName: string,
  ) {}

  /** A CoreV1Api authenticated as the node's kubelet. */
  async kubeletClient(): Promise<CoreV1Api> {
    const kc = new KubeConfig();
    kc.loadFromString(
      await this.world.cluster.server.clientCertKubeconfig(`system:node:${this.nodeName}`, ['system:nodes']),
    );
    return kc.makeApiClient(CoreV1Api);
  }

  async forge(f: ForgedNode): Promise<void> {
    const annotations = {
      ...f.annotations,
      ...(f.owner === undefined ? {} : { 'windowsmachineconfig.openshift.io/instance-address': f.owner }),
    };
    if (Object.keys(annotations).length > 0) {
      const core = await this.kubeletClient();
      await core.patchNode({ name: this.nodeName, body: { metadata: { annotations } } }, mergePatch);
    }
    if (f.internalIp !== undefined) await this.restartKubeletWithNodeIp(f.internalIp);
  }

  private async restartKubeletWithNodeIp(ip: string): Promise<void> {
    const scm = this.world.hosts.hosts[this.host]?.sim.model.scm;
    const kubelet = scm?.get('kubelet');
    if (!scm || !kubelet) throw new Error(`host ${this.host} runs no kubelet`);
    await scm.stop('kubelet');
    kubelet.commandLine = /--node-ip=\S+/.test(kubelet.commandLine)
      ? kubelet.commandLine.replace(/--node-ip=\S+/, `--node-ip=${ip}`)
      : `${kubelet.commandLine} --node-ip=${ip}`;
    await scm.start('kubelet');
  }
}
