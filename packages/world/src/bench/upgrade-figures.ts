import { ms } from './join-limit.js';

/** What `pnpm bench upgrade` measured: each node's upload bytes before and after, and the upgrade's time. */
export interface UpgradeMeasurement {
  /** Bytes each host had received over SFTP when the old version had joined it, by node. */
  readonly before: readonly number[];
  /** The same counters once every node runs the new version. */
  readonly after: readonly number[];
  /** From the new operator leading to the last node on the new version. */
  readonly seconds: number;
  /** The compressed size of the one binary that differs between the two payloads. */
  readonly changedBinaryCompressedBytes: number;
}

/** The benchmark's JSON line. */
export interface UpgradeFigures {
  readonly bytesPerNode: number;
  readonly changedBinaryCompressedBytes: number;
  readonly secondsPerNode: number;
}

/** Mean upload bytes per node during the upgrade, and its wall time divided by the nodes upgraded. */
export function upgradeFigures(m: UpgradeMeasurement): UpgradeFigures {
  if (m.before.length !== m.after.length || m.before.length === 0)
    throw new Error('upgrade figures need the same nodes, at least one, before and after');
  const sent = m.after.map((a, i) => a - m.before[i]!);
  return {
    bytesPerNode: Math.round(sent.reduce((a, b) => a + b, 0) / sent.length),
    changedBinaryCompressedBytes: m.changedBinaryCompressedBytes,
    secondsPerNode: ms(m.seconds / sent.length),
  };
}
