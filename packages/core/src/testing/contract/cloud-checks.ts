import type { ExecutionContext } from 'ava';
import { CloudNotConfiguredError } from '../../provider/errors.js';
import type { CloudInstance } from '../../provider/capabilities/instance-identity.js';

/** A plain instance for the checks that never reach a cloud. */
export const CONTRACT_INSTANCE: CloudInstance = {
  instanceId: 'contract-instance',
  name: 'contract-instance',
  providerId: 'example://contract-instance',
  zone: 'zone-a',
  privateIp: '10.0.0.10',
  privateDnsName: 'contract-instance',
  tags: {},
};

/**
 * The contract suite registers no `CloudContext`, so every cloud call must reject with
 * `CloudNotConfiguredError` (the BYOH join then warns once and goes on) rather than crash or hang.
 */
export async function rejectsNotConfigured(t: ExecutionContext, call: () => Promise<unknown>): Promise<void> {
  const error = await t.throwsAsync(call);
  t.true(
    error instanceof CloudNotConfiguredError,
    `expected CloudNotConfiguredError without a CloudContext, got ${String(error)}`,
  );
}
