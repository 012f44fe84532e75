/** A persistent IPv4 route the host must keep across HNS network creation and reboots. */
export interface PersistentRoute {
  /** CIDR, e.g. `169.254.169.254/32`. */
  readonly destinationPrefix: string;
  /** Why the route exists, shown by `wmco plan`. */
  readonly description: string;
}
