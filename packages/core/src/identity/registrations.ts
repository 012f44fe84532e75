/** What the operator itself knows of an instance: its `windows-instances` key and its addresses. */
export interface InstanceRef {
  /** The `windows-instances` key: an IPv4 address or a DNS name. */
  readonly address: string;
  readonly ipv4: string;
  /** The DNS name the instance is listed under (lower-cased), when it is listed by name. */
  readonly dnsName?: string;
}

/**
 * One join's claim on a node name: created when the join decides the name (before the kubelet starts),
 * ended when the entry is removed, the join fails or finishes, or `ttlMs` after it began. A live
 * registration is the only thing a client CSR can be approved against, and at most one is.
 */
export interface Registration extends InstanceRef {
  readonly nodeName: string;
  readonly createdAt: Date;
  /**
   * Client CSRs created before this are never approved for it (a CSR sent in advance for a guessed name).
   * `createdAt` for a fresh join; `ttlMs` earlier when the join resumes with the kubelet already started
   * (its pending CSR was sent under the previous leader's registration).
   */
  readonly acceptsSince: Date;
  readonly approvedClientCsr?: string;
}

export interface RegisterOptions {
  /** The client CSR already approved for it (found after a restart). */
  readonly approvedClientCsr?: string | undefined;
  /** The join resumes: the host's kubelet was started by an earlier attempt. */
  readonly resumed?: boolean;
}

/** A Node this operator joined (it carries the instance-address annotation the join wrote). */
export interface OwnedNode extends InstanceRef {
  readonly nodeName: string;
}

/** Another instance holds the name. */
export class NodeNameTakenError extends Error {
  constructor(nodeName: string, holder: string) {
    super(`node name ${nodeName} is already claimed by instance ${holder}`);
    this.name = 'NodeNameTakenError';
  }
}

/** Registrations last 15 minutes unless configured otherwise (the kubelet waits 10 for its node). */
export const DEFAULT_REGISTRATION_TTL_MS = 15 * 60_000;

/**
 * The operator's record of who may be which node: live registrations (for client CSRs) and owned
 * nodes (for serving CSRs), both keyed by instance address, so memory is bounded by `windows-instances`.
 * In memory: a new leader re-registers when it resumes a join (ADR 0008).
 */
export class Registrations {
  private readonly byAddress = new Map<string, Registration>();
  private readonly owned = new Map<string, OwnedNode>();
  private readonly listeners: (() => void)[] = [];
  private approvals: (nodeName: string, address: string) => string | undefined = () => undefined;

  constructor(private readonly o: { readonly ttlMs: number; readonly now?: () => Date }) {}

  /** Claims `nodeName` for `ref`; throws NodeNameTakenError when another instance holds it. */
  register(ref: InstanceRef, nodeName: string, o: RegisterOptions = {}): Registration {
    const holder = this.holderOf(nodeName);
    if (holder !== undefined && holder !== ref.address) throw new NodeNameTakenError(nodeName, holder);
    const now = this.now();
    const r: Registration = {
      ...ref,
      nodeName,
      createdAt: now,
      acceptsSince: o.resumed ? new Date(now.getTime() - this.o.ttlMs) : now,
      ...(o.approvedClientCsr !== undefined ? { approvedClientCsr: o.approvedClientCsr } : {}),
    };
    this.byAddress.set(ref.address, r);
    this.changed();
    return r;
  }

  /** The live registration of an instance. */
  forAddress(address: string): Registration | undefined {
    const r = this.byAddress.get(address);
    return r && this.live(r) ? r : undefined;
  }

  /** The live registration for a node name. */
  forNode(nodeName: string): Registration | undefined {
    return [...this.byAddress.values()].find((r) => r.nodeName === nodeName && this.live(r));
  }

  end(address: string): void {
    if (this.byAddress.delete(address)) this.changed();
  }

  /** Ends registrations and forgets owned nodes of instances no longer listed. */
  retainOnly(addresses: Iterable<string>): void {
    const keep = new Set(addresses);
    const gone = [...this.byAddress.keys(), ...this.owned.keys()].filter((a) => !keep.has(a));
    gone.forEach((a) => {
      this.byAddress.delete(a);
      this.owned.delete(a);
    });
    if (gone.length > 0) this.changed();
  }

  /**
   * Records `csrName` as the one approved client CSR of the live registration for `nodeName`. Returns the
   * registration when this CSR may be approved (no other was), else undefined. Synchronous, so two
   * workers can never both claim one registration.
   */
  claimClient(nodeName: string, csrName: string): Registration | undefined {
    const r = this.forNode(nodeName);
    if (!r || (r.approvedClientCsr !== undefined && r.approvedClientCsr !== csrName)) return undefined;
    const claimed = { ...r, approvedClientCsr: csrName };
    this.byAddress.set(r.address, claimed);
    return claimed;
  }

  /** Gives a claim back when the approval could not be written. */
  releaseClient(nodeName: string, csrName: string): void {
    const r = this.forNode(nodeName);
    if (r?.approvedClientCsr !== csrName) return;
    const { approvedClientCsr: _released, ...rest } = r;
    this.byAddress.set(r.address, rest);
  }

  own(node: OwnedNode): void {
    const previous = this.owned.get(node.address);
    this.owned.set(node.address, node);
    if (previous?.nodeName !== node.nodeName) this.changed();
  }

  disown(address: string): void {
    this.owned.delete(address);
    this.end(address);
  }

  owner(nodeName: string): OwnedNode | undefined {
    return [...this.owned.values()].find((n) => n.nodeName === nodeName);
  }

  /** The instance that holds `nodeName` now: through a live registration or an owned node. */
  holderOf(nodeName: string): string | undefined {
    return this.forNode(nodeName)?.address ?? this.owner(nodeName)?.address;
  }

  /** Where approvals written before this process started are found (the controllers' CSR cache). */
  useApprovals(lookup: (nodeName: string, address: string) => string | undefined): void {
    this.approvals = lookup;
  }

  /** The client CSR an operator (this one or an earlier leader) approved for this node and instance. */
  approvedClientCsr(nodeName: string, address: string): string | undefined {
    return this.approvals(nodeName, address);
  }

  /** Called when a registration or an owned node appears or changes, so pending CSRs are looked at again. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private live(r: Registration): boolean {
    return this.now().getTime() - r.createdAt.getTime() < this.o.ttlMs;
  }

  private changed(): void {
    this.listeners.forEach((l) => l());
  }

  private now(): Date {
    return (this.o.now ?? (() => new Date()))();
  }
}
