/** The checks of `wmco preflight`, in the order they run. */
export const PREFLIGHT_CHECKS = [
  'address',
  'reachability',
  'ssh',
  'shell',
  'folders',
  'os-build',
  'containers',
  'hostname',
  'disk',
  'firewall',
] as const;
/** The cloud checks `wmco preflight --kubeconfig` adds after those, on platforms with cloud capabilities. */
export const CLOUD_PREFLIGHT_CHECKS = ['cloud-instance', 'cloud-tag', 'cloud-firewall'] as const;
export type PreflightCheck = (typeof PREFLIGHT_CHECKS)[number] | (typeof CLOUD_PREFLIGHT_CHECKS)[number];

/**
 * `pass`: ready. `warn`: the join works, but says what it will do or what to watch (it does not fail the
 * preflight). `fail`: the join would fail or the node would not work. `skip`: an earlier check it needs failed.
 */
export type FindingStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One line of a preflight report. */
export interface Finding {
  readonly check: PreflightCheck;
  readonly status: FindingStatus;
  /** What was found. */
  readonly detail: string;
  /** What to do about it (warn and fail only). */
  readonly fix?: string;
}

export function pass(check: PreflightCheck, detail: string): Finding {
  return { check, status: 'pass', detail };
}

export function warn(check: PreflightCheck, detail: string, fix: string): Finding {
  return { check, status: 'warn', detail, fix };
}

export function fail(check: PreflightCheck, detail: string, fix: string): Finding {
  return { check, status: 'fail', detail, fix };
}

export function skip(check: PreflightCheck, reason: string): Finding {
  return { check, status: 'skip', detail: reason };
}
