import type { CoreV1Api } from '@kubernetes/client-node';
import type { PinnedHostKey } from '../host/host-key-store.js';
import { isNotFound } from '../kube/client/api-errors.js';
import type { Logger } from '../kube/logger.js';
import { HOST_KEYS_CONFIGMAP } from '../identity/node-metadata.js';
import type { RecordedHostKeys } from '../identity/recorded-host-keys.js';

/** What one start-up move of `windows-ssh-host-keys` did. */
export interface LegacyPinMove {
  /** Pins written into a node record, or already there. */
  readonly recorded: readonly string[];
  /** Pins of hosts with no record yet: kept as pending pins until their record takes them. */
  readonly pending: readonly string[];
  /** Pins not moved: not a key, or a record already pins another key for the host. */
  readonly refused: readonly string[];
}

function decode(value: string): PinnedHostKey | undefined {
  const [type, base64, ...rest] = value.split(' ');
  return type && base64 && rest.length === 0 ? { type, base64 } : undefined;
}

type Outcome = 'recorded' | 'pending' | 'refused';

async function moveOne(pins: RecordedHostKeys, key: string, value: string): Promise<Outcome> {
  const pin = decode(value);
  const record = pins.recordOf(key);
  if (pin === undefined) return 'refused';
  if (record?.hostKey !== undefined && record.hostKey.base64 !== pin.base64) return 'refused';
  await pins.pin(key, pin);
  return record === undefined ? 'pending' : 'recorded';
}

/**
 * Moves the pins of `windows-ssh-host-keys` (where pins lived before node records) once, on start
 * (ADR 0038): a pin whose host has a node record goes into the record; one whose host has none yet goes
 * to the pending pins, which the record takes when it is written; a pin that disagrees with its record is
 * refused (the record wins) and logged. Then the old ConfigMap is deleted: nothing reads or writes it
 * again. A move that fails leaves it in place, to be moved at the next start.
 */
export async function moveLegacyHostKeys(
  core: CoreV1Api,
  namespace: string,
  pins: RecordedHostKeys,
  logger: Logger,
): Promise<LegacyPinMove | undefined> {
  let data: Record<string, string>;
  try {
    data = (await core.readNamespacedConfigMap({ name: HOST_KEYS_CONFIGMAP, namespace })).data ?? {};
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const out: Record<Outcome, string[]> = { recorded: [], pending: [], refused: [] };
  for (const [key, value] of Object.entries(data)) out[await moveOne(pins, key, value)].push(key);
  if (out.refused.length > 0)
    logger.warn(
      { pins: out.refused },
      `${HOST_KEYS_CONFIGMAP}: pins not moved (not a host key, or the node record pins another key)`,
    );
  await core.deleteNamespacedConfigMap({ name: HOST_KEYS_CONFIGMAP, namespace }).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
  });
  logger.info(
    { recorded: out.recorded.length, pending: out.pending.length, refused: out.refused.length },
    `moved the SSH host key pins of ${HOST_KEYS_CONFIGMAP} into the node records and deleted it`,
  );
  return out;
}
