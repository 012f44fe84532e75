import { getCiphers, type SecureVersion } from 'node:tls';

/**
 * The cluster's TLS security profile (`apiservers.config.openshift.io/cluster` `spec.tlsSecurityProfile`)
 * as Node's TLS options. The predefined profiles are OpenShift's (openshift/api, config/v1
 * types_tlssecurityprofile.go, based on Mozilla's recommendations); their cipher names are OpenSSL's for
 * TLS 1.2 and IANA's for TLS 1.3, which is also how Node's `ciphers` option takes them.
 */
export interface TlsProfileOptions {
  /** `Old`, `Intermediate`, `Modern` or `Custom`. */
  readonly profile: string;
  readonly minVersion: SecureVersion;
  /** OpenSSL cipher list (`:`-separated). */
  readonly ciphers: string;
  /** Why the cluster's profile was not used as written (unknown type, version or ciphers), if it was not. */
  readonly problem?: string;
}

const TLS13 = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];
const INTERMEDIATE12 = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'DHE-RSA-AES128-GCM-SHA256',
  'DHE-RSA-AES256-GCM-SHA384',
];
const OLD_EXTRA = [
  'DHE-RSA-CHACHA20-POLY1305',
  'ECDHE-ECDSA-AES128-SHA256',
  'ECDHE-RSA-AES128-SHA256',
  'ECDHE-ECDSA-AES128-SHA',
  'ECDHE-RSA-AES128-SHA',
  'ECDHE-ECDSA-AES256-SHA384',
  'ECDHE-RSA-AES256-SHA384',
  'ECDHE-ECDSA-AES256-SHA',
  'ECDHE-RSA-AES256-SHA',
  'DHE-RSA-AES128-SHA256',
  'DHE-RSA-AES256-SHA256',
  'AES128-GCM-SHA256',
  'AES256-GCM-SHA384',
  'AES128-SHA256',
  'AES256-SHA256',
  'AES128-SHA',
  'AES256-SHA',
  'DES-CBC3-SHA',
];

interface ProfileSpec {
  readonly ciphers: readonly string[];
  readonly minTLSVersion: string;
}

export const TLS_PROFILES: Readonly<Record<'Old' | 'Intermediate' | 'Modern', ProfileSpec>> = {
  Old: { ciphers: [...TLS13, ...INTERMEDIATE12, ...OLD_EXTRA], minTLSVersion: 'VersionTLS10' },
  Intermediate: { ciphers: [...TLS13, ...INTERMEDIATE12], minTLSVersion: 'VersionTLS12' },
  Modern: { ciphers: TLS13, minTLSVersion: 'VersionTLS13' },
};

const VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

function options(profile: string, spec: ProfileSpec, problem?: string): TlsProfileOptions {
  const known = new Set(getCiphers().map((c) => c.toUpperCase()));
  const usable = spec.ciphers.filter((c) => known.has(c.toUpperCase()));
  const unknown = spec.ciphers.filter((c) => !known.has(c.toUpperCase()));
  const notes = [problem, unknown.length ? `ciphers unknown to OpenSSL left out: ${unknown.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return {
    profile,
    minVersion: VERSIONS[spec.minTLSVersion] ?? 'TLSv1.2',
    ciphers: usable.join(':'),
    ...(notes ? { problem: notes } : {}),
  };
}

const intermediate = (problem: string): TlsProfileOptions =>
  options('Intermediate', TLS_PROFILES.Intermediate, `${problem}; using Intermediate`);

function custom(value: unknown): TlsProfileOptions {
  const c = (value ?? {}) as { ciphers?: unknown; minTLSVersion?: unknown };
  const ciphers = Array.isArray(c.ciphers) ? c.ciphers.filter((x): x is string => typeof x === 'string') : [];
  const version = typeof c.minTLSVersion === 'string' ? c.minTLSVersion : '';
  if (!(version in VERSIONS)) return intermediate(`Custom profile with minTLSVersion "${version}"`);
  const spec = { ciphers, minTLSVersion: version };
  const result = options('Custom', spec);
  if (result.ciphers === '') return intermediate('Custom profile without a cipher OpenSSL knows');
  // TLS 1.3 needs a TLS 1.3 suite, earlier versions an OpenSSL (non TLS_) cipher.
  const names = result.ciphers.split(':');
  const has13 = names.some((n) => n.startsWith('TLS_'));
  const has12 = names.some((n) => !n.startsWith('TLS_'));
  if ((version === 'VersionTLS13' && !has13) || (version !== 'VersionTLS13' && !has12))
    return intermediate(`Custom profile whose ciphers cannot serve ${version}`);
  return result;
}

/** Maps `spec.tlsSecurityProfile` (undefined or empty: Intermediate, OpenShift's default) to Node's options. */
export function tlsProfileOptions(tlsSecurityProfile: unknown): TlsProfileOptions {
  const p = (tlsSecurityProfile ?? {}) as { type?: unknown; custom?: unknown };
  const type = p.type ?? 'Intermediate';
  if (type === 'Custom') return custom(p.custom);
  if (type === 'Old' || type === 'Intermediate' || type === 'Modern')
    return options(type, TLS_PROFILES[type]);
  return intermediate(`unknown TLS security profile type ${JSON.stringify(type)}`);
}
