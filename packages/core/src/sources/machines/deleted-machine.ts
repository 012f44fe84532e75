import type { NodeRecords } from '../../identity/node-record-store.js';
import { errorMessage, type Logger } from '../../kube/logger.js';
import { machineKey } from './machine-instance.js';
import { windowsMachine, type MachineResource } from './machine-object.js';
import type { MachinePins } from './machine-pins.js';

/**
 * What the operator forgets of a Machine being deleted: its host-key pins (while it is deleted and once it
 * is gone), and once it is gone from the API its node record (ADR 0035; its Node goes with the Machine).
 * Never throws: a failure is logged; a record left behind is removed by the Machine's next reconcile, which
 * finds the Machine gone (MachineReconciler.forget).
 */
export async function forgetDeletedMachine(
  res: MachineResource,
  gone: boolean,
  o: { readonly pins: MachinePins; readonly records: NodeRecords; readonly logger: Logger },
): Promise<void> {
  await o.pins.deleted(res, gone).catch((e: unknown) => {
    o.logger.warn({ err: errorMessage(e) }, 'cannot forget the host key pins of a deleted Machine');
  });
  const key = machineKey(windowsMachine(res));
  if (!gone || o.records.get('machine', key) === undefined) return;
  await o.records.remove('machine', key).then(
    () => o.logger.info({ machine: key }, 'Machine deleted: forgot its node record'),
    (e: unknown) =>
      o.logger.warn({ err: errorMessage(e), machine: key }, 'cannot forget a deleted Machine’s record'),
  );
}

/**
 * On start, once the Machines are listed: the records (and with them the host-key pins, ADR 0038) of
 * Machines deleted while no operator ran are forgotten, so a new Machine given such an address later is
 * trusted on first use instead of refused for ever. Resolves to the keys forgotten; a failure is logged.
 */
export async function forgetRecordsOfGoneMachines(
  machines: readonly MachineResource[],
  o: { readonly records: NodeRecords; readonly logger: Logger },
): Promise<readonly string[]> {
  const live = new Set(machines.map((m) => machineKey(windowsMachine(m))));
  const gone = o.records
    .all()
    .filter((r) => r.source === 'machine' && !live.has(r.instance))
    .map((r) => r.instance);
  for (const key of gone)
    await o.records.remove('machine', key).then(
      () => o.logger.info({ machine: key }, 'Machine deleted while no operator ran: forgot its node record'),
      (e: unknown) =>
        o.logger.warn({ err: errorMessage(e), machine: key }, 'cannot forget a deleted Machine’s record'),
    );
  return gone;
}
