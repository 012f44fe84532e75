import { isObject, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import type { SimController } from './controller.js';

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function node(name: string, role: string, index: number): JsonObject {
  const t = now();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        [`node-role.kubernetes.io/${role}`]: '',
        'node.openshift.io/os_id': 'rhcos',
      },
    },
    spec: {},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        },
      ],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${10 + index}` },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        operatingSystem: 'linux',
        architecture: 'amd64',
        kubeletVersion: 'v1.36.0',
        osImage: 'Red Hat Enterprise Linux CoreOS (sim)',
      },
    },
  };
}

/**
 * The cluster's Linux nodes (control plane and workers) with a stand-in kubelet that renews each node's
 * Lease in kube-node-lease, so the node lifecycle controller keeps them Ready.
 */
export class LinuxNodes implements SimController {
  readonly name = 'linux-nodes';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: ObjectWriter,
    private readonly names: readonly { readonly name: string; readonly role: string }[],
    private readonly intervalMs = 10_000,
  ) {}

  create(): void {
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    this.names.forEach((n, i) => this.writer.create(nodeType, undefined, node(n.name, n.role, i)));
    this.renew();
  }

  private renew(): void {
    const leaseType = this.writer.registry.mustFind('coordination.k8s.io', 'v1', 'leases');
    for (const { name } of this.names) {
      const lease = this.writer.store.get(leaseType, 'kube-node-lease', name);
      if (!lease) {
        this.writer.create(leaseType, 'kube-node-lease', {
          metadata: { name },
          spec: {
            holderIdentity: name,
            leaseDurationSeconds: 40,
            renewTime: new Date().toISOString().replace(/Z$/, '000Z'),
          },
        });
        continue;
      }
      const spec = isObject(lease['spec']) ? lease['spec'] : {};
      lease['spec'] = { ...spec, renewTime: new Date().toISOString().replace(/Z$/, '000Z') };
      this.writer.update({ type: leaseType, namespace: 'kube-node-lease', name }, lease);
    }
  }

  start(): void {
    this.timer ??= setInterval(() => this.renew(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
