import type { WindowsModel } from './windows-model.js';

/**
 * Stop-WmcoService on the model: running dependents first, then, for a service still START_PENDING, the end
 * of its start is waited for (at most the module's service timeout), since the SCM refuses to stop a service
 * that is starting (1061); then the stop.
 */
export async function stopServiceLikeModule(m: WindowsModel, name: string): Promise<void> {
  const svc = m.scm.get(name);
  if (!svc) return;
  for (const dependent of m.scm.dependents(svc.name)) await stopServiceLikeModule(m, dependent.name);
  await m.scm.startSettled(svc.name, m.scm.startTimeoutMs);
  await m.scm.stop(svc.name);
}
