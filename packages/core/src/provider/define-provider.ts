import { contractRange, type ContractRange } from './contract-version.js';
import { InvalidProviderError } from './errors.js';
import { isPlatformName, type PlatformType } from './platform.js';
import { RecordingRegistrar, type ProviderRegistrar } from './registrar.js';
import { tokenId } from './token.js';

/** What a provider package writes. */
export interface ProviderSpec {
  /** kebab-case, unique among providers: `aws`, `vsphere`, `kubevirt`. */
  readonly id: string;
  /** The platform type(s) served, as in `infrastructure/cluster .status.platformStatus.type`. */
  readonly platform: PlatformType | readonly PlatformType[];
  /**
   * The provider contract versions it supports: a semver range (`'^1.0.0'`), or a major version N, short
   * for `^N.0.0` (CONTRACT.md, "Versioning"). Checked at registration.
   */
  readonly contractVersion: ContractRange;
  /** Human name for listings, e.g. `Amazon Web Services`. */
  readonly displayName?: string;
  /** npm package that ships it, for error messages and `wmco providers`. */
  readonly packageName?: string;
  /** Registers the provider's capabilities. Synchronous, and free of side effects (STYLE §4). */
  register(registrar: ProviderRegistrar): void;
}

/** A validated, frozen provider. */
export interface WmcoProvider {
  readonly id: string;
  readonly platforms: readonly PlatformType[];
  /** The declared range of contract versions (`'^1.0.0'`; a major number N becomes `'^N.0.0'`). */
  readonly contractVersion: string;
  readonly displayName: string;
  readonly packageName: string | undefined;
  register(registrar: ProviderRegistrar): void;
}

const PROVIDER_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function declaredRange(id: string, declared: unknown): string {
  const range = contractRange(declared);
  if (range !== undefined) return range;
  const shown = JSON.stringify(declared) ?? String(declared);
  throw new InvalidProviderError(
    id,
    `contractVersion must be a semver range such as '^1.0.0' or a major version number (got ${shown})`,
  );
}

/**
 * Validates a provider's shape (its contract range must be a range) and freezes it. Whether the range
 * includes the core's contract version is checked at registration.
 */
export function defineProvider(spec: ProviderSpec): WmcoProvider {
  const id = typeof spec.id === 'string' ? spec.id : String(spec.id);
  if (!PROVIDER_ID.test(id)) throw new InvalidProviderError(id, 'id must be kebab-case, e.g. "vsphere"');
  const platforms: readonly PlatformType[] =
    typeof spec.platform === 'string' ? [spec.platform] : [...spec.platform];
  if (platforms.length === 0) throw new InvalidProviderError(id, 'serves no platform');
  const bad = platforms.filter((p) => typeof p !== 'string' || !isPlatformName(p));
  if (bad.length > 0) {
    throw new InvalidProviderError(
      id,
      `platform names must be PascalCase (got ${bad.map(String).join(', ')})`,
    );
  }
  if (new Set(platforms).size !== platforms.length)
    throw new InvalidProviderError(id, 'lists a platform twice');
  if (typeof spec.register !== 'function') throw new InvalidProviderError(id, 'register must be a function');
  const range = declaredRange(id, spec.contractVersion);
  return Object.freeze({
    id,
    platforms: Object.freeze(platforms),
    contractVersion: range,
    displayName: spec.displayName ?? id,
    packageName: spec.packageName,
    register: spec.register.bind(spec),
  });
}

/** The capability token ids a provider registers, in registration order (no container involved). */
export function providerCapabilities(provider: WmcoProvider): readonly string[] {
  const recorder = new RecordingRegistrar();
  provider.register(recorder);
  return recorder.registrations.map((r) => tokenId(r.token));
}
