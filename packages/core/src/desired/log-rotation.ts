/** Log rotation for managed services, from the operator's SERVICES_LOG_* settings (reference §1.12). */
export interface LogRotation {
  /** Kubernetes quantity, e.g. `100Mi`. */
  readonly fileSize?: string;
  /** Go duration, e.g. `48h`. */
  readonly fileAge?: string;
  /** Go duration, e.g. `10s`. */
  readonly flushInterval?: string;
}

/** The raw settings, passed in by the caller (never read from process.env here). */
export interface LogRotationSettings {
  readonly SERVICES_LOG_FILE_SIZE?: string | undefined;
  readonly SERVICES_LOG_FILE_AGE?: string | undefined;
  readonly SERVICES_LOG_FLUSH_INTERVAL?: string | undefined;
}

// k8s resource.Quantity: optional sign, decimal number (or exponent form), optional suffix.
const QUANTITY = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;
// Go time.ParseDuration: a sequence of decimal numbers with units; a bare "0" is allowed.
const DURATION = /^[+-]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;

/** A SERVICES_LOG_FILE_SIZE value: trimmed; empty means unset; must be a quantity >= 0. */
export function parseLogQuantity(name: string, raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  if (!QUANTITY.test(value)) throw new Error(`${name}: "${value}" is not a Kubernetes quantity (e.g. 100Mi)`);
  if (value.startsWith('-') && Number.parseFloat(value) !== 0) {
    throw new Error(`${name}: "${value}" must not be negative`);
  }
  return value;
}

/** A Go duration setting: trimmed; empty means unset; no leading '-'. */
export function parseLogDuration(name: string, raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  if (value.startsWith('-')) throw new Error(`${name}: "${value}" must not be negative`);
  if (!DURATION.test(value)) {
    throw new Error(`${name}: "${value}" is not a duration (e.g. 30s, 48h)`);
  }
  return value;
}

/** Validates the three settings together; throws naming the first bad variable. */
export function parseLogRotation(settings: LogRotationSettings): LogRotation {
  const fileSize = parseLogQuantity('SERVICES_LOG_FILE_SIZE', settings.SERVICES_LOG_FILE_SIZE);
  const fileAge = parseLogDuration('SERVICES_LOG_FILE_AGE', settings.SERVICES_LOG_FILE_AGE);
  const flushInterval = parseLogDuration('SERVICES_LOG_FLUSH_INTERVAL', settings.SERVICES_LOG_FLUSH_INTERVAL);
  return {
    ...(fileSize !== undefined ? { fileSize } : {}),
    ...(fileAge !== undefined ? { fileAge } : {}),
    ...(flushInterval !== undefined ? { flushInterval } : {}),
  };
}

/** True when any rotation setting is present (upstream then logs "log rotation configured"). */
export function isLogRotationConfigured(r: LogRotation): boolean {
  return r.fileSize !== undefined || r.fileAge !== undefined || r.flushInterval !== undefined;
}

export const KUBE_LOG_RUNNER = 'C:\\k\\kube-log-runner.exe';

/**
 * `<runner> -log-file=<log>[ -log-file-size=..][ -log-file-age=..][ -flush-interval=..] <command>`
 * (upstream GetKubeLogRunnerCmd).
 */
export function kubeLogRunnerCommand(
  rotation: LogRotation,
  command: string,
  logFile: string,
  runner = KUBE_LOG_RUNNER,
): string {
  const flags = [`-log-file=${logFile}`];
  if (rotation.fileSize !== undefined) flags.push(`-log-file-size=${rotation.fileSize}`);
  if (rotation.fileAge !== undefined) flags.push(`-log-file-age=${rotation.fileAge}`);
  if (rotation.flushInterval !== undefined) flags.push(`-flush-interval=${rotation.flushInterval}`);
  return `${runner} ${flags.join(' ')} ${command}`;
}
