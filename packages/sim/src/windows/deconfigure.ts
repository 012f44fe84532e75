import { HOST_PROTOCOL_VERSION, type ChangeResult } from '@wmco/core/internal';
import { type DeconfigureRequest, type HostAction } from '@wmco/core';
import { stopServiceLikeModule } from './module-service-stop.js';
import { MANAGED_CERTIFICATE_NAME } from './root-certificate-store.js';
import type { WindowsModel } from './windows-model.js';

async function removeServices(m: WindowsModel, req: DeconfigureRequest, done: HostAction[]): Promise<void> {
  const names = [...req.services];
  if (req.removeTaggedServices) {
    names.push(
      ...m.scm
        .all()
        .filter((s) => s.description.includes('OpenShift managed'))
        .map((s) => s.name),
    );
  }
  for (const name of names) {
    if (await removeServiceLikeModule(m, name)) done.push({ kind: 'deleteService', target: name });
  }
}

/**
 * Remove-WmcoService: Stop-WmcoService, then sc.exe delete; false when there was no such service. It waits
 * until the service is gone (sc.exe answers 1060), as upstream WMCO does, so a service re-created right after
 * does not meet 1072.
 */
export async function removeServiceLikeModule(m: WindowsModel, name: string): Promise<boolean> {
  await stopServiceLikeModule(m, name);
  if (!(await m.scm.delete(name))) return false;
  if (!(await m.scm.deletion.gone(name, DELETE_WAIT_MS)))
    throw new Error(`service '${name}' is still marked for deletion after ${DELETE_WAIT_MS / 1000} s`);
  return true;
}

/** Remove-WmcoManagedFirewallRules: each named rule that carries the operator's mark (its Description). */
function removeManagedFirewallRules(m: WindowsModel, names: readonly string[]): HostAction[] {
  const done: HostAction[] = [];
  for (const name of names) {
    const i = m.firewallRules.findIndex((r) => r.name === name);
    if (i < 0 || m.firewallRules[i]?.description !== MANAGED_CERTIFICATE_NAME) continue;
    m.firewallRules.splice(i, 1);
    done.push({ kind: 'removeFirewallRule', target: name });
  }
  return done;
}

/** How long Remove-WmcoService waits for a deleted service to go. */
const DELETE_WAIT_MS = 30_000;

/** Removes the first requested network that exists (request order); true when one was removed. */
function removeOneNetwork(m: WindowsModel, names: readonly string[], done: HostAction[]): boolean {
  const net = names.map((name) => m.hnsNetworks.find((n) => n.name === name)).find((n) => n !== undefined);
  if (!net) return false;
  m.hnsNetworks.splice(m.hnsNetworks.indexOf(net), 1);
  // Removing a network removes its endpoints with it.
  for (const ep of m.hnsEndpoints.filter((e) => e.networkId === net.id))
    m.hnsEndpoints.splice(m.hnsEndpoints.indexOf(ep), 1);
  done.push({ kind: 'removeHnsNetwork', target: net.name });
  return true;
}

function removeDirectories(m: WindowsModel, req: DeconfigureRequest, done: HostAction[]): void {
  const keep = req.keep.map((k) => m.files.resolve(k).toLowerCase());
  const kept = (p: string): boolean =>
    keep.some((k) => k === p.toLowerCase() || k.startsWith(`${p.toLowerCase()}\\`));
  for (const dir of req.directories.filter((d) => m.files.isDirectory(d))) {
    for (const p of m.files.descendants(dir)) if (!kept(p)) m.files.remove(p);
    if (!kept(m.files.resolve(dir))) m.files.remove(dir);
    done.push({ kind: 'removeDirectory', target: dir });
  }
}

/** Remove-WmcoEmptyFolders: each listed folder that is empty, in order; a link or a missing one stays. */
function removeEmptyFolders(m: WindowsModel, paths: readonly string[], done: HostAction[]): void {
  for (const path of paths) {
    if (m.files.linkAt(path) !== undefined || !m.files.isDirectory(path)) continue;
    if (m.files.list(path).length > 0) continue;
    m.files.remove(path);
    done.push({ kind: 'removeDirectory', target: path });
  }
}

/**
 * Invoke-WmcoDeconfigure on the model: services, then at most one HNS network per call (the module answers
 * `reconnect` after it, since removing one can drop the SSH session), then env vars, the marked Root
 * certificates and firewall rules, directories (keeping `keep`) and the empty parents.
 */
export async function deconfigure(m: WindowsModel, req: DeconfigureRequest): Promise<ChangeResult> {
  const done: HostAction[] = [];
  try {
    await removeServices(m, req, done);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      v: HOST_PROTOCOL_VERSION,
      op: 'deconfigure',
      ok: false,
      done,
      rebootRequired: false,
      error: { message },
    };
  }
  const result = { v: HOST_PROTOCOL_VERSION, op: 'deconfigure', ok: true, done } as const;
  if (removeOneNetwork(m, req.hnsNetworks, done))
    return { ...result, rebootRequired: false, reconnect: true };
  // Only in the call that finishes (after the networks), so the restart they need is scheduled by that call.
  const removedVars = req.envVars.filter((name) => m.envVars.delete(name.toLowerCase()));
  done.push(...removedVars.map((name) => ({ kind: 'removeEnvVar', target: name })));
  const certificates = req.removeManagedRootCertificates === true ? m.rootStore.removeAllManaged() : [];
  done.push(...certificates.map((target) => ({ kind: 'removeRootCertificate', target })));
  done.push(...removeManagedFirewallRules(m, req.firewallRules ?? []));
  const rebootRequired = removedVars.length > 0 || certificates.length > 0;
  removeDirectories(m, req, done);
  removeEmptyFolders(m, req.removeIfEmpty ?? [], done);
  return { ...result, rebootRequired };
}
