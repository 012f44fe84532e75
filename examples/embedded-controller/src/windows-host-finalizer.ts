import { PatchStrategy, setHeaderOptions, type CustomObjectsApi } from '@kubernetes/client-node';
import type { EventRecorder, Logger } from '@wmco/core';
import {
  heldByFinalizer,
  WINDOWS_HOST_API,
  WINDOWS_HOST_FINALIZER,
  windowsHostRef,
  type WindowsHost,
} from './windows-host.js';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** How a leaving host's removal ended, as the shared lifecycle reported it. */
export type RemovalEnd = { readonly removed: true } | { readonly removed: false; readonly lastError: string };

/**
 * The controller's finalizer on its WindowsHosts: added to each host it lists, so deleting a WindowsHost
 * waits for the shared lifecycle's removal (drain, deconfigure, Node deleted), and released once the
 * removal ended. A removal that failed (a host that cannot be reached) releases it too, with a Warning
 * event: the removal goes on from the controller's node record, as for a `windows-instances` entry.
 */
export class WindowsHostFinalizer {
  private events: EventRecorder | undefined;
  /** WindowsHost uids whose removal ended, released (again) until they are gone. */
  private readonly ended = new Map<string, RemovalEnd>();

  constructor(
    private readonly custom: CustomObjectsApi,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {}

  /** Where the release's events are written (the controllers' recorder); absent: only logged. */
  useEvents(events: EventRecorder): void {
    this.events = events;
  }

  /** Adds the finalizer to each listed WindowsHost that lacks it. */
  async hold(listed: Iterable<WindowsHost>): Promise<void> {
    for (const h of listed) {
      if (heldByFinalizer(h) || h.metadata?.deletionTimestamp !== undefined) continue;
      await this.setFinalizers(h, [...(h.metadata?.finalizers ?? []), WINDOWS_HOST_FINALIZER]);
    }
  }

  /** The host's removal ended: say how, and release the finalizer. */
  async end(host: WindowsHost, end: RemovalEnd): Promise<void> {
    const uid = host.metadata?.uid ?? host.metadata?.name ?? '';
    if (!this.ended.has(uid)) {
      this.ended.set(uid, end);
      await this.tell(host, end);
    }
    await this.release(host);
  }

  /** Releases again each leaving host whose removal ended but whose release failed; forgets the gone. */
  async retry(leaving: readonly WindowsHost[]): Promise<void> {
    const uids = new Set(leaving.map((h) => h.metadata?.uid ?? h.metadata?.name ?? ''));
    for (const uid of this.ended.keys()) if (!uids.has(uid)) this.ended.delete(uid);
    for (const h of leaving)
      if (this.ended.has(h.metadata?.uid ?? h.metadata?.name ?? '')) await this.release(h);
  }

  private async tell(host: WindowsHost, end: RemovalEnd): Promise<void> {
    const address = host.spec?.address ?? '';
    const log = { windowsHost: host.metadata?.name ?? '' };
    if (end.removed) {
      const message = `the host ${address} was deconfigured and its node removed; finalizer ${WINDOWS_HOST_FINALIZER} released`;
      this.logger.info(log, message);
      await this.events?.record(windowsHostRef(host), 'Normal', 'NodeRemoved', message);
      return;
    }
    const message = `the host ${address} could not be deconfigured (${end.lastError}); finalizer ${WINDOWS_HOST_FINALIZER} released: the controller keeps retrying the removal from its node record, and the node stays cordoned until the host answers`;
    this.logger.warn(log, message);
    await this.events?.record(windowsHostRef(host), 'Warning', 'RemovalIncomplete', message);
  }

  private async release(host: WindowsHost): Promise<void> {
    const rest = (host.metadata?.finalizers ?? []).filter((f) => f !== WINDOWS_HOST_FINALIZER);
    await this.setFinalizers(host, rest);
  }

  /** A merge patch of the finalizers, at the resourceVersion read (a conflict is retried at the next change). */
  private async setFinalizers(host: WindowsHost, finalizers: string[]): Promise<void> {
    const { group, version, plural } = WINDOWS_HOST_API;
    const name = host.metadata?.name ?? '';
    const metadata = { finalizers, resourceVersion: host.metadata?.resourceVersion };
    try {
      await this.custom.patchNamespacedCustomObject(
        { group, version, namespace: this.namespace, plural, name, body: { metadata } },
        MERGE_PATCH,
      );
    } catch (err) {
      this.logger.warn({ windowsHost: name, err: String(err) }, 'cannot change the WindowsHost finalizers');
    }
  }
}
