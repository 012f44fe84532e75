import { ACCESS_COLUMNS } from './printers-access.js';
import { CORE_COLUMNS } from './printers-core.js';
import { EVENT_COLUMNS } from './printers-events.js';
import { WORKLOAD_COLUMNS } from './printers-workloads.js';
import type { Column } from './table-cells.js';

export { age, AGE, NAME, type Column } from './table-cells.js';

/**
 * The columns kube-apiserver prints for each built-in kind the simulated server serves, by
 * `<group>/<Kind>` (pkg/printers/internalversion/printers.go; priority 1 = `-o wide` only).
 */
export const BUILTIN_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  ...CORE_COLUMNS,
  ...EVENT_COLUMNS,
  ...WORKLOAD_COLUMNS,
  ...ACCESS_COLUMNS,
};
