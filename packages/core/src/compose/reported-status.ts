import { errorMessage, type Logger } from '../kube/logger.js';
import {
  MACHINE_STATUS_PREFIX,
  type InstanceStatus,
  type InstanceStatusStore,
} from '../lifecycle/instance-status.js';
import type { InstanceList, InstanceReport } from '../sources/byoh/instance-list.js';

function reportOf(s: InstanceStatus): InstanceReport {
  return {
    address: s.address,
    phase: s.phase,
    ...(s.node === undefined ? {} : { node: s.node }),
    ...(s.lastError === undefined ? {} : { lastError: s.lastError }),
  };
}

/**
 * The status store of a listed source whose instances come from an `InstanceList`: every status of the
 * source `source` written (and every status removed) is also reported to the list, which writes it where
 * its users look (a custom resource's status). Other sources' statuses (Machines') are not reported. A failed report is
 * logged and never fails the lifecycle's own status write.
 */
export function reportedStatus(
  store: InstanceStatusStore,
  list: InstanceList,
  logger: Logger,
  source = 'byoh',
): InstanceStatusStore {
  const report = list.report?.bind(list);
  if (!report) return store;
  const send = async (address: string, status: InstanceStatus | undefined): Promise<void> => {
    if (address.startsWith(MACHINE_STATUS_PREFIX)) return;
    await report(address, status && reportOf(status)).catch((e: unknown) =>
      logger.warn({ address, err: errorMessage(e) }, 'cannot report the status of a listed host'),
    );
  };
  return {
    get: (address) => store.get(address),
    set: async (status) => {
      await store.set(status);
      // Only its own source's statuses (a status written before sources were recorded: windows-instances).
      if ((status.source ?? 'byoh') === source) await send(status.address, status);
    },
    remove: async (address) => {
      await store.remove(address);
      await send(address, undefined);
    },
    retain: async (keep) => {
      const gone: string[] = [];
      await store.retain((address, phase) => {
        const kept = keep(address, phase);
        if (!kept) gone.push(address);
        return kept;
      });
      for (const address of gone) await send(address, undefined);
    },
  };
}
