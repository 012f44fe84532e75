/** 4789: the hybrid overlay's VXLAN port unless the cluster sets `hybridOverlayVXLANPort`. */
export const DEFAULT_VXLAN_PORT = 4789;
/** Below this much free space on C: the join fails (payload, one servercore image, kubelet's eviction margin). */
export const MIN_FREE_DISK_BYTES = 10 * 2 ** 30;
/** Below this much free space on C: the node soon runs into image garbage collection and evictions. */
export const RECOMMENDED_FREE_DISK_BYTES = 20 * 2 ** 30;

/** What the host checks compare against besides the platform's prerequisites. */
export interface HostCheckOptions {
  /** The platform type name, for messages (e.g. `None`, `VSphere`). */
  readonly platform: string;
  /** The cluster's hybrid overlay VXLAN port. */
  readonly vxlanPort: number;
}
