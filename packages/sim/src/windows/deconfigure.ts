import { HOST_PROTOCOL_VERSION, type ChangeResult, type DeconfigureRequest, type HostAction } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/** Invoke-WmcoDeconfigure on the model. */
export async function deconfigure(m: WindowsModel, req: DeconfigureRequest): Promise<ChangeResult> {
  const done: HostAction[] = [];
  let rebootRequired = false;
  const names = [...req.services];
  if (req.removeTaggedServices) {
    names.push(...m.scm.all().filter((s) => s.description.includes('OpenShift managed')).map((s) => s.name));
  }
  for (const name of names) {
    if (await m.scm.delete(name)) done.push({ kind: 'deleteService', target: name });
  }
  for (const name of req.envVars) {
    if (m.envVars.delete(name.toLowerCase())) {
      done.push({ kind: 'removeEnvVar', target: name });
      rebootRequired = true;
    }
  }
  for (const name of req.hnsNetworks) {
    for (let i = m.hnsNetworks.findIndex((n) => n.name === name); i >= 0; i = m.hnsNetworks.findIndex((n) => n.name === name)) {
      m.hnsNetworks.splice(i, 1);
      done.push({ kind: 'removeHnsNetwork', target: name });
    }
  }
  const keep = req.keep.map((k) => m.files.resolve(k).toLowerCase());
  const kept = (p: string): boolean => keep.some((k) => k === p.toLowerCase() || k.startsWith(`${p.toLowerCase()}\\`));
  for (const dir of req.directories) {
    if (!m.files.isDirectory(dir)) continue;
    for (const p of m.files.descendants(dir)) if (!kept(p)) m.files.remove(p);
    if (!kept(m.files.resolve(dir))) m.files.remove(dir);
    done.push({ kind: 'removeDirectory', target: dir });
  }
  return { v: HOST_PROTOCOL_VERSION, op: 'deconfigure', ok: true, done, rebootRequired };
}
