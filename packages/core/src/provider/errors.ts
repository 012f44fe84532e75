/** Base class of every error wmco raises on purpose; `code` is stable for programs, `message` is for people. */
export class WmcoError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A provider definition is malformed (bad id, bad platform name, missing register). */
export class InvalidProviderError extends WmcoError {
  constructor(providerId: string, why: string) {
    super('InvalidProvider', `provider '${providerId}': ${why}`);
  }
}

/**
 * A provider's declared contract range does not include the contract version this core implements, or is
 * not a range at all. Raised when the provider is registered, so at start-up.
 */
export class ContractVersionError extends WmcoError {
  constructor(
    readonly provider: string,
    readonly declared: unknown,
    readonly implemented: string,
    range: string | undefined,
  ) {
    super('ContractVersion', ContractVersionError.describe(provider, declared, implemented, range));
  }

  private static describe(provider: string, declared: unknown, implemented: string, range?: string): string {
    const shown = typeof declared === 'string' ? `'${declared}'` : String(declared);
    if (range === undefined) {
      return (
        `${provider} declares contractVersion ${shown}, which is neither a semver range of contract ` +
        `versions (such as '^1.0.0') nor a major version number`
      );
    }
    const major = implemented.split('.')[0] ?? implemented;
    return (
      `${provider} supports provider contract ${range}, but this @wmco/core implements contract ` +
      `${implemented}: use a release of the provider that supports contract ${major}.x, or a @wmco/core ` +
      `whose contract version is in ${range} (@wmco/core's CONTRACT.md, "Versioning")`
    );
  }
}

/** Two providers with the same id were registered into one container. */
export class DuplicateProviderError extends WmcoError {
  constructor(providerId: string, existing: string, incoming: string) {
    super(
      'DuplicateProvider',
      `provider '${providerId}' is already registered (${existing}); refusing a second registration (${incoming})`,
    );
  }
}

/** Two registrations claimed the same capability token in one container. */
export class DuplicateCapabilityError extends WmcoError {
  constructor(capability: string, existingOwner: string, incomingOwner: string) {
    super(
      'DuplicateCapability',
      `capability '${capability}' is already registered by ${existingOwner}; ${incomingOwner} may not register it again`,
    );
  }
}

/** No provider serves the cluster's platform. */
export class UnknownPlatformError extends WmcoError {
  constructor(platform: string, served: readonly string[]) {
    super(
      'UnknownPlatform',
      `no provider serves platform '${platform}'; the providers given serve: ${served.length > 0 ? served.join(', ') : '(none)'}`,
    );
  }
}

/** More than one provider claims the cluster's platform. */
export class PlatformConflictError extends WmcoError {
  constructor(platform: string, providerIds: readonly string[]) {
    super(
      'PlatformConflict',
      `platform '${platform}' is served by more than one provider: ${providerIds.map((id) => `'${id}'`).join(' and ')}; pass only one`,
    );
  }
}

/** A cloud capability was called but the cluster has no (usable) credentials for the cloud. */
export class CloudNotConfiguredError extends WmcoError {
  constructor(providerId: string, why: string) {
    super('CloudNotConfigured', `${providerId}: cloud access not configured: ${why}`);
  }
}

/** What a cloud API call failed with. */
export interface CloudFailure {
  readonly operation: string;
  /** The cloud's own error code (`RequestLimitExceeded`, `AuthorizationFailed`, HTTP 403 reason...). */
  readonly cloudCode: string;
  readonly kind: 'unauthorized' | 'throttled' | 'not-found' | 'conflict' | 'other';
  readonly detail: string;
}

/**
 * The cloud API refused a call (unauthorized, throttled after the SDK's retries, a server error). The
 * message names the provider, the operation and the cloud's error code, never a credential.
 */
export class CloudApiError extends WmcoError {
  readonly operation: string;
  readonly cloudCode: string;
  readonly kind: CloudFailure['kind'];

  constructor(providerId: string, failure: CloudFailure) {
    super(
      'CloudApi',
      `${providerId}: ${failure.operation} failed: ${failure.cloudCode} (${failure.kind}): ${failure.detail}`,
    );
    this.operation = failure.operation;
    this.cloudCode = failure.cloudCode;
    this.kind = failure.kind;
  }
}
