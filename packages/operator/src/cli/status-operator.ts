import { OPERATOR_STATUS_KEY, type OperatorCondition, type OperatorStatus } from '@wmco/core/internal';
import { terminalSafe } from './terminal-safe.js';

/** The operator's own section of `windows-instances-status`, read loosely (anyone with edit rights may write it). */
export function parseOperatorStatus(
  data: Readonly<Record<string, string>>,
  warn: (s: string) => void,
): OperatorStatus | undefined {
  const raw = data[OPERATOR_STATUS_KEY];
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const conditions = (parsed as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) {
    warn(`skipping entry "${OPERATOR_STATUS_KEY}": not the operator's status`);
    return undefined;
  }
  const fields = ['type', 'status', 'reason', 'message', 'lastTransitionTime'] as const;
  return {
    version: terminalSafe((parsed as { version?: unknown }).version),
    conditions: conditions
      .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
      .map(
        (c) => Object.fromEntries(fields.map((f) => [f, terminalSafe(c[f])])) as unknown as OperatorCondition,
      ),
  };
}

/** The status a condition has when all is well: anything else is shown with its reason and message. */
const HEALTHY: Readonly<Record<string, string>> = {
  Available: 'True',
  Progressing: 'False',
  Degraded: 'False',
  PrivateKeyReady: 'True',
  ClusterSupported: 'True',
};

/**
 * The lines `wmco status` prints above its table: the three ClusterOperator conditions on one line, then
 * each condition that is not as it should be, with its reason and message.
 */
export function operatorLines(status: OperatorStatus): string[] {
  const shown = ['Available', 'Progressing', 'Degraded'];
  const summary = status.conditions
    .filter((c) => shown.includes(c.type))
    .map((c) => `${c.type}=${c.status}`)
    .join(' ');
  const notes = status.conditions
    .filter((c) => HEALTHY[c.type] !== c.status)
    .map((c) => `  ${c.type}=${c.status} (${c.reason}): ${c.message}`);
  return [`OPERATOR ${status.version}: ${summary}`, ...notes];
}
