/** A network interface of the host: its index, IPv4 address and interface metric. */
export interface ModelInterface {
  readonly ifIndex: number;
  readonly ipv4: string;
  /** Windows' automatic metric: 15 for a 10 Gbit/s link, 25 for 1 Gbit/s, 35 for 100 Mbit/s. */
  readonly metric: number;
}

/** A default route through an interface, with its route metric (0 for a DHCP or static default route). */
export interface ModelDefaultRoute {
  readonly ifIndex: number;
  readonly nextHop: string;
  readonly routeMetric: number;
}

/**
 * The interfaces that carry default routes, and the route Windows sends through: the one with the lowest route
 * metric plus interface metric (Microsoft: "Automatic metric feature for IPv4 routes"), ties to the lower
 * interface index. The primary interface (ifIndex 6) is the model's `ipv4`; a second NIC with its own
 * default route is a settable scenario (`addDefaultRoute`).
 */
export class NetworkInterfaces {
  private readonly interfaces: ModelInterface[];
  private readonly metrics = new Map<string, number>();

  constructor(primary: ModelInterface) {
    this.interfaces = [primary];
  }

  get(ifIndex: number): ModelInterface | undefined {
    return this.interfaces.find((i) => i.ifIndex === ifIndex);
  }

  /** A second NIC (or another default route on one): the interface is added when it is new. */
  add(iface: ModelInterface, route: ModelDefaultRoute): void {
    if (!this.get(iface.ifIndex)) this.interfaces.push(iface);
    this.metrics.set(`${route.ifIndex} ${route.nextHop}`, route.routeMetric);
  }

  routeMetric(ifIndex: number, nextHop: string): number {
    return this.metrics.get(`${ifIndex} ${nextHop}`) ?? 0;
  }

  /** Of these default routes, the one Windows uses, with its interface; undefined when there is none. */
  best(
    defaults: readonly { readonly interfaceIndex: number; readonly nextHop: string }[],
  ): ModelInterface | undefined {
    const ranked = defaults
      .flatMap((r) => {
        const iface = this.get(r.interfaceIndex);
        return iface ? [{ iface, cost: this.routeMetric(r.interfaceIndex, r.nextHop) + iface.metric }] : [];
      })
      .sort((a, b) => a.cost - b.cost || a.iface.ifIndex - b.iface.ifIndex);
    return ranked[0]?.iface;
  }
}
