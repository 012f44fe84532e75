import type { HostState } from '../host/protocol/index.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { fail, pass, type Finding } from './finding.js';

const MAX_LABEL = 63;
const RFC1123_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** A name that would pass: lower case, other characters turned into '-', trimmed to `max`. */
export function suggestHostname(hostname: string, max: number): string {
  const cleaned = hostname
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
  return cleaned === '' ? 'windows-node' : cleaned;
}

/**
 * The computer name becomes the node name lower-cased, so it must be an RFC 1123 label of at most 63
 * characters, and no longer than the platform's machine-name limit when it has one.
 */
export function checkHostname(state: HostState, prereqs: PlatformPrerequisites): Finding {
  const name = state.hostname;
  const lower = name.toLowerCase();
  const max = Math.min(MAX_LABEL, prereqs.machineNameMaxLength ?? MAX_LABEL);
  const fix = `rename the host, e.g. Rename-Computer -NewName ${suggestHostname(name, max)} -Restart`;
  if (!RFC1123_LABEL.test(lower))
    return fail(
      'hostname',
      `hostname '${name}' is not a valid node name: use only letters, digits and '-', starting and ending with a letter or digit (RFC 1123)`,
      fix,
    );
  if (lower.length > max)
    return fail(
      'hostname',
      `hostname '${name}' has ${lower.length} characters; at most ${max} are allowed`,
      fix,
    );
  return pass('hostname', `hostname '${name}' gives node name '${lower}'`);
}
