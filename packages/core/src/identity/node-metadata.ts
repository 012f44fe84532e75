/** Labels and annotations the operator reads and writes (reference §3.1, §3.2). */
export const Labels = {
  byoh: 'windowsmachineconfig.openshift.io/byoh',
  workerRole: 'node-role.kubernetes.io/worker',
  os: 'kubernetes.io/os',
  osId: 'node.openshift.io/os_id',
} as const;

export const Annotations = {
  version: 'windowsmachineconfig.openshift.io/version',
  desiredVersion: 'windowsmachineconfig.openshift.io/desired-version',
  pubKeyHash: 'windowsmachineconfig.openshift.io/pub-key-hash',
  username: 'windowsmachineconfig.openshift.io/username',
  sshHostKey: 'windowsmachineconfig.openshift.io/ssh-host-key',
  sshHostKeyType: 'windowsmachineconfig.openshift.io/ssh-host-key-type',
  /** wmco-ts: the `windows-instances` key (IPv4 or DNS name) this BYOH node was joined from. */
  instanceAddress: 'windowsmachineconfig.openshift.io/instance-address',
  /** wmco-ts: `<namespace>/<name>` of the Machine this node was joined from (the Machine owns it). */
  machine: 'windowsmachineconfig.openshift.io/machine',
  hybridOverlaySubnet: 'k8s.ovn.org/hybrid-overlay-node-subnet',
} as const;

export const WINDOWS_INSTANCES_CONFIGMAP = 'windows-instances';
export const PRIVATE_KEY_SECRET = 'cloud-private-key';
export const PRIVATE_KEY_FIELD = 'private-key.pem';
/** Where pins lived before node records (ADR 0038): read once on start, moved, then deleted. */
export const HOST_KEYS_CONFIGMAP = 'windows-ssh-host-keys';
/** Pins of hosts the operator reached before their node record exists: joins in flight (ADR 0038). */
export const PENDING_HOST_KEYS_CONFIGMAP = 'windows-ssh-host-keys-pending';
export const STATUS_CONFIGMAP = 'windows-instances-status';
export const WINDOWS_NODE_SELECTOR = `${Labels.os}=windows`;
