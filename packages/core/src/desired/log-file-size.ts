import { parseLogQuantity } from './log-rotation.js';

const SUFFIX: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * A SERVICES_LOG_FILE_SIZE quantity in megabytes (10^6 bytes), rounded up: what a service that takes a
 * size in MB (upstream: WICD's `--log-file-max-size`) gets. `""` (unset) is an error here, because the
 * caller asks only when a size is configured.
 */
export function logFileSizeMB(quantity: string): number {
  const q = parseLogQuantity('SERVICES_LOG_FILE_SIZE', quantity);
  if (q === undefined) throw new Error('SERVICES_LOG_FILE_SIZE: no size given');
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/.exec(q);
  if (!m) throw new Error(`SERVICES_LOG_FILE_SIZE: "${q}" is not a Kubernetes quantity`);
  const [, number = '0', exponent, suffix = ''] = m;
  const bytes = Number(number) * 10 ** Number(exponent ?? 0) * (SUFFIX[suffix] ?? 1);
  return Math.ceil(bytes / 1e6);
}
