import semver from 'semver';

/**
 * The provider contract this build of @wmco/core implements, as a semantic version. The rules (CONTRACT.md,
 * "Versioning"): a major change can break a provider written against an earlier version (a capability or
 * one of its members removed, renamed or given another meaning, a rule made stricter); a minor change adds
 * something a provider may use (a new capability, an optional member, a new registrar method); a patch
 * changes neither (wording, documentation). A provider declares the range it supports; registration
 * refuses a provider whose range does not include this version (ContractVersionError).
 */
export const CONTRACT_VERSION = '1.0.0';

/**
 * What a provider declares as its `contractVersion`: a semver range of the contract versions it supports
 * (`'^1.0.0'`, `'^1.2.0'` when it uses something contract 1.2 added, `'>=1.0.0 <3.0.0'`), or a major
 * version number N, short for `^N.0.0`.
 */
export type ContractRange = string | number;

/** The semver range a declaration stands for, or undefined when it is neither a range nor a major number. */
export function contractRange(declared: unknown): string | undefined {
  if (typeof declared === 'number') {
    return Number.isSafeInteger(declared) && declared >= 0 ? `^${declared}.0.0` : undefined;
  }
  if (typeof declared !== 'string' || declared.trim() === '') return undefined;
  return semver.validRange(declared) === null ? undefined : declared.trim();
}

/** Whether a provider declaring `declared` may run on a core implementing `implemented`. */
export function supportsContract(declared: unknown, implemented: string = CONTRACT_VERSION): boolean {
  const range = contractRange(declared);
  return range !== undefined && semver.satisfies(implemented, range);
}
