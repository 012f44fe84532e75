import type { Taint } from './kubelet-config-file.js';

/** What the kubelet knows about itself when it registers. */
export interface NodeIdentity {
  readonly name: string;
  readonly internalIp: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** `10.0.<build>` (major.minor.build), as the kubelet reports the Windows build. */
  readonly windowsBuild: string;
  readonly kubeletVersion: string;
  readonly osImage: string;
  readonly cloudProvider?: string;
}

/** Labels every kubelet sets on its own Node, over the `--node-labels` ones. */
export function nodeLabels(id: NodeIdentity): Record<string, string> {
  return {
    ...id.labels,
    'beta.kubernetes.io/os': 'windows',
    'beta.kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'windows',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': id.name,
    'node.kubernetes.io/windows-build': id.windowsBuild,
  };
}

/** The Node object a Windows kubelet POSTs when `registerNode` is on. */
export function nodeObject(id: NodeIdentity): Record<string, unknown> {
  const external = id.cloudProvider === 'external';
  // With --cloud-provider=external the kubelet waits for the cloud node manager to clear this taint.
  const taints = external
    ? [
        ...id.taints,
        { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
      ]
    : id.taints;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: nodeLabels(id),
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: taints.length > 0 ? { taints } : {},
  };
}

const seconds = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/** The kubelet's node status: addresses, node info, capacity and the conditions with a fresh heartbeat. */
export function nodeStatus(
  id: NodeIdentity,
  previous: readonly Record<string, unknown>[],
  now: Date,
): Record<string, unknown> {
  const condition = (
    type: string,
    status: string,
    reason: string,
    message: string,
  ): Record<string, unknown> => {
    const old = previous.find((c) => c['type'] === type);
    const same = old?.['status'] === status;
    return {
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: seconds(now),
      lastTransitionTime:
        same && typeof old['lastTransitionTime'] === 'string' ? old['lastTransitionTime'] : seconds(now),
    };
  };
  return {
    addresses: [
      { type: 'InternalIP', address: id.internalIp },
      { type: 'Hostname', address: id.name },
    ],
    // The kubelet publishes the port of its HTTPS server here; the API server's node proxy dials it.
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    capacity: { cpu: '4', memory: '16776692Ki', pods: '250', 'ephemeral-storage': '133703676Ki' },
    allocatable: { cpu: '3500m', memory: '14577140Ki', pods: '250', 'ephemeral-storage': '122147783367' },
    nodeInfo: {
      machineID: id.name,
      systemUUID: '',
      bootID: '',
      kernelVersion: `${id.windowsBuild}.0`,
      osImage: id.osImage,
      containerRuntimeVersion: 'containerd://1.7.27',
      kubeletVersion: id.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'windows',
      architecture: 'amd64',
    },
    conditions: [
      condition(
        'MemoryPressure',
        'False',
        'KubeletHasSufficientMemory',
        'kubelet has sufficient memory available',
      ),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
  };
}
