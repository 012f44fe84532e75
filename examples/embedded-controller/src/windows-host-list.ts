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
import type { InstanceList, InstanceReport, Logger, ObjectRef } from '@wmco/core';
import {
  hostsByAddress,
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

/**
 * The WindowsHost custom resources of one namespace as @wmco/core's `InstanceList`: each WindowsHost
 * lists `spec.address` with `spec.user`, and the shared lifecycle's status of that host is written into
 * the WindowsHost's status subresource. A second WindowsHost of an address already listed is not listed;
 * its status says which WindowsHost lists the address.
 */
export class WindowsHostList implements InstanceList {
  private readonly custom: CustomObjectsApi;
  private informer: HostInformer | undefined;
  private listed = false;
  private signature = '';
  /** The status last written per WindowsHost uid (the informer's copy may not show it yet). */
  private readonly written = new Map<string, string>();

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
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

  /** Events about a host go on its WindowsHost (`kubectl describe windowshost` shows them). */
  eventTarget(address: string): ObjectRef | undefined {
    const host = this.informer && hostsByAddress(this.informer.list()).listed.get(address);
    return host ? windowsHostRef(host) : undefined;
  }

  async report(address: string, status: InstanceReport | undefined): Promise<void> {
    const host = this.informer && hostsByAddress(this.informer.list()).listed.get(address);
    // A host's status goes with it: a WindowsHost that is gone has nothing to write to.
    if (!host || !status) return;
    await this.writeStatus(host, statusOf(status));
  }

  /** The lifecycle hears of a change only when the listed hosts changed (not on our own status writes). */
  private onChange(changed: () => void): void {
    const signature = JSON.stringify(this.instances() ?? null);
    if (signature !== this.signature) {
      this.signature = signature;
      changed();
    }
    void this.reportDuplicates();
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
