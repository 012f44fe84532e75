import {
  ADD,
  CustomObjectsApi,
  DELETE,
  ERROR,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  UPDATE,
  type Informer,
  type KubeConfig,
  type KubernetesListObject,
  type ObjectCache,
} from '@kubernetes/client-node';
import type { EventRecorder, InstanceList, InstanceReport, Logger, ObjectRef } from '@wmco/core';
import { WindowsHostFinalizer } from './windows-host-finalizer.js';
import {
  hostsByAddress,
  leavingHosts,
  windowsHostRef,
  WINDOWS_HOST_API,
  type WindowsHost,
  type WindowsHostStatus,
} from './windows-host.js';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
/** A watch that failed is started again after this long. */
const RESTART_MS = 1000;

type HostInformer = Informer<WindowsHost> & ObjectCache<WindowsHost>;

function statusOf(r: InstanceReport): WindowsHostStatus {
  return { phase: r.phase, nodeName: r.node ?? '', lastError: r.lastError ?? '' };
}

/** A removal that failed: the remove flow's status says `Failed` with `removal: <why>`. */
function removalFailed(r: InstanceReport): boolean {
  return r.phase === 'Failed' && (r.lastError ?? '').startsWith('removal:');
}

/**
 * The WindowsHost custom resources of one namespace as @wmco/core's `InstanceList`: each WindowsHost
 * lists `spec.address` with `spec.user`, and the shared lifecycle's status of that host is written into
 * the WindowsHost's status subresource. A second WindowsHost of an address already listed is not listed;
 * its status says which WindowsHost lists the address. Each listed WindowsHost gets a finalizer, so a
 * deleted one stays (leaving) until the lifecycle removed its host (windows-host-finalizer.ts).
 */
export class WindowsHostList implements InstanceList {
  private readonly custom: CustomObjectsApi;
  private informer: HostInformer | undefined;
  private listed = false;
  private signature = '';
  /** The status last written per WindowsHost uid (the informer's copy may not show it yet). */
  private readonly written = new Map<string, string>();
  private readonly finalizer: WindowsHostFinalizer;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.finalizer = new WindowsHostFinalizer(this.custom, namespace, logger);
  }

  /** Where the finalizer's release is told (`WmcoControllers.events`). */
  useEvents(events: EventRecorder): void {
    this.finalizer.useEvents(events);
  }

  async start(changed: () => void): Promise<void> {
    const { group, version, plural } = WINDOWS_HOST_API;
    const namespace = this.namespace;
    const path = `/apis/${group}/${version}/namespaces/${namespace}/${plural}`;
    const list = (): Promise<KubernetesListObject<WindowsHost>> =>
      this.custom.listNamespacedCustomObject({ group, version, namespace, plural }) as Promise<
        KubernetesListObject<WindowsHost>
      >;
    const informer = makeInformer<WindowsHost>(this.kc, path, list);
    const onChange = (): void => this.onChange(changed);
    for (const ev of [ADD, UPDATE, DELETE] as const) informer.on(ev, onChange);
    informer.on(ERROR, (err: unknown) => this.restart(informer, err));
    this.informer = informer;
    await informer.start();
    this.listed = true;
    onChange();
  }

  stop(): void {
    void this.informer?.stop();
    this.informer = undefined;
    this.listed = false;
    this.signature = '';
    this.written.clear();
  }

  get synced(): boolean {
    return this.listed;
  }

  instances(): Readonly<Record<string, string>> | undefined {
    if (!this.informer || !this.listed) return undefined;
    const { listed } = hostsByAddress(this.informer.list());
    return Object.fromEntries([...listed].map(([address, h]) => [address, `username=${h.spec?.user ?? ''}`]));
  }

  /** The addresses of deleted WindowsHosts the finalizer still holds. */
  leaving(): readonly string[] {
    return this.informer ? [...leavingHosts(this.informer.list()).keys()] : [];
  }

  /** Events about a host go on its WindowsHost (`kubectl describe windowshost` shows them), leaving too. */
  eventTarget(address: string): ObjectRef | undefined {
    const host = this.hostAt(address);
    return host ? windowsHostRef(host) : undefined;
  }

  async report(address: string, status: InstanceReport | undefined): Promise<void> {
    const hosts = this.informer?.list() ?? [];
    const host = hostsByAddress(hosts).listed.get(address);
    if (host) {
      if (status) await this.writeStatus(host, statusOf(status));
      return;
    }
    // A WindowsHost being deleted: its removal's phases, then how it ended (the finalizer is released).
    const leaving = leavingHosts(hosts).get(address);
    if (!leaving) return;
    if (status) await this.writeStatus(leaving, statusOf(status));
    if (status === undefined) await this.finalizer.end(leaving, { removed: true });
    else if (removalFailed(status))
      await this.finalizer.end(leaving, { removed: false, lastError: status.lastError ?? '' });
  }

  private hostAt(address: string): WindowsHost | undefined {
    const hosts = this.informer?.list() ?? [];
    return hostsByAddress(hosts).listed.get(address) ?? leavingHosts(hosts).get(address);
  }

  /** The lifecycle hears of a change only when the listed hosts changed (not on our own status writes). */
  private onChange(changed: () => void): void {
    const signature = JSON.stringify([this.instances() ?? null, this.leaving()]);
    if (signature !== this.signature) {
      this.signature = signature;
      changed();
    }
    void this.reportDuplicates();
    void this.keepFinalizers();
  }

  private async keepFinalizers(): Promise<void> {
    if (!this.informer) return;
    const hosts = this.informer.list();
    await this.finalizer.hold(hostsByAddress(hosts).listed.values());
    await this.finalizer.retry([...leavingHosts(hosts).values()]);
  }

  private async reportDuplicates(): Promise<void> {
    if (!this.informer) return;
    for (const { host, listedBy } of hostsByAddress(this.informer.list()).duplicates) {
      const lastError = `address ${host.spec?.address ?? ''} is already listed by WindowsHost ${listedBy}: this one is ignored`;
      await this.writeStatus(host, { phase: 'Failed', nodeName: '', lastError });
    }
  }

  private async writeStatus(host: WindowsHost, status: WindowsHostStatus): Promise<void> {
    const { group, version, plural } = WINDOWS_HOST_API;
    const name = host.metadata?.name ?? '';
    const id = host.metadata?.uid ?? name;
    const json = JSON.stringify(status);
    if ((this.written.get(id) ?? JSON.stringify(host.status ?? {})) === json) return;
    this.written.set(id, json);
    try {
      await this.custom.patchNamespacedCustomObjectStatus(
        { group, version, namespace: this.namespace, plural, name, body: { status } },
        MERGE_PATCH,
      );
    } catch (err) {
      this.written.delete(id);
      this.logger.warn({ windowsHost: name, err: String(err) }, 'cannot write the WindowsHost status');
    }
  }

  private restart(informer: HostInformer, err: unknown): void {
    this.logger.warn({ err: String(err) }, 'the WindowsHost watch failed; starting it again');
    setTimeout(() => {
      if (this.informer === informer) informer.start().catch((e: unknown) => this.restart(informer, e));
    }, RESTART_MS);
  }
}
