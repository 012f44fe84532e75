import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectRef } from '@wmco/core';

/** The API of the example's custom resource (deploy/windowshost-crd.yaml). */
export const WINDOWS_HOST_API = {
  group: 'hosts.example.com',
  version: 'v1alpha1',
  plural: 'windowshosts',
  kind: 'WindowsHost',
} as const;

/** What the controller writes into a WindowsHost's status subresource. */
export interface WindowsHostStatus {
  /** The shared lifecycle's phase: Pending, Connecting, Configuring, WaitingForNode, Ready, ... */
  phase?: string;
  /** The Node the host joined as. */
  nodeName?: string;
  /** Why the last attempt failed (kept while it retries). */
  lastError?: string;
}

/** One Windows host the embedded controller joins: where to reach it and with which account. */
export interface WindowsHost extends KubernetesObject {
  spec?: { address?: string; user?: string };
  status?: WindowsHostStatus;
}

function created(h: WindowsHost): string {
  const t = h.metadata?.creationTimestamp as unknown;
  if (t instanceof Date) return t.toISOString();
  return typeof t === 'string' ? t : '';
}

/** Oldest first, then by name. */
function byAge(a: WindowsHost, b: WindowsHost): number {
  const [ca, cb] = [created(a), created(b)];
  return ca === cb ? (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '') : ca.localeCompare(cb);
}

/** Its address, when it names both an address and a user. */
function listable(h: WindowsHost): string | undefined {
  const address = h.spec?.address ?? '';
  return address === '' || (h.spec?.user ?? '') === '' ? undefined : address;
}

/** The finalizer the controller keeps on each WindowsHost it lists, until its node is removed. */
export const WINDOWS_HOST_FINALIZER = 'hosts.example.com/remove-node';

/** Whether the WindowsHost carries the controller's finalizer. */
export function heldByFinalizer(h: WindowsHost): boolean {
  return (h.metadata?.finalizers ?? []).includes(WINDOWS_HOST_FINALIZER);
}

/**
 * The WindowsHosts being deleted that the finalizer still holds, by address: their hosts are removed
 * before the finalizer goes. An address a live WindowsHost lists is not leaving (that one now lists it).
 */
export function leavingHosts(hosts: readonly WindowsHost[]): ReadonlyMap<string, WindowsHost> {
  const { listed } = hostsByAddress(hosts);
  const leaving = new Map<string, WindowsHost>();
  for (const h of [...hosts].sort(byAge)) {
    const address = h.spec?.address ?? '';
    if (h.metadata?.deletionTimestamp === undefined || !heldByFinalizer(h) || listed.has(address)) continue;
    if (!leaving.has(address)) leaving.set(address, h);
  }
  return leaving;
}

/**
 * The hosts by address: the oldest WindowsHost of an address lists it (then by name); the others with
 * the same address are `duplicates`, named with the one that lists it.
 */
export function hostsByAddress(hosts: readonly WindowsHost[]): {
  readonly listed: ReadonlyMap<string, WindowsHost>;
  readonly duplicates: readonly { readonly host: WindowsHost; readonly listedBy: string }[];
} {
  const sorted = hosts.filter((h) => h.metadata?.deletionTimestamp === undefined).sort(byAge);
  const listed = new Map<string, WindowsHost>();
  const duplicates: { host: WindowsHost; listedBy: string }[] = [];
  for (const h of sorted) {
    const address = listable(h);
    if (address === undefined) continue;
    const first = listed.get(address);
    if (first) duplicates.push({ host: h, listedBy: first.metadata?.name ?? '' });
    else listed.set(address, h);
  }
  return { listed, duplicates };
}

/** The WindowsHost as the object an event is about. */
export function windowsHostRef(h: WindowsHost): ObjectRef {
  const { group, version, kind } = WINDOWS_HOST_API;
  return {
    apiVersion: `${group}/${version}`,
    kind,
    name: h.metadata?.name ?? '',
    namespace: h.metadata?.namespace ?? '',
    ...(h.metadata?.uid ? { uid: h.metadata.uid } : {}),
  };
}
