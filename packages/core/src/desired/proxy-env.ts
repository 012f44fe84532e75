import { isProxyUrlVariable, stripProxyCredentials } from './proxy-credentials.js';

export const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'] as const;

/**
 * The proxy variables the hosts get (reference §1.10): those of HTTP_PROXY, HTTPS_PROXY and NO_PROXY that
 * are present in `env` (the operator's own environment, passed in), values verbatim: NO_PROXY keeps its
 * commas (OCPBUGS-24264 reverted a comma-to-semicolon rewrite). Empty when no proxy is configured.
 */
export function proxyEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (value !== undefined) vars[name] = value;
  }
  return vars;
}

/** Proxy enabled iff any of the three variables exists in the environment. */
export function isProxyEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return Object.keys(proxyEnvironment(env)).length > 0;
}

/**
 * True when the host's system environment must change (and the host then reboots, reference §1.5): a
 * watched variable is set, changed or removed. `existing` is the host's current values.
 */
export function watchedEnvironmentChanged(
  existing: Readonly<Record<string, string>>,
  desired: Readonly<Record<string, string>>,
  watched: readonly string[],
): boolean {
  return watched.some((name) => existing[name] !== desired[name]);
}

/**
 * The variables as they may be published (the services ConfigMap, which anyone who can read ConfigMaps in
 * the namespace sees): credentials in a proxy URL (`http://user:pass@proxy:3128`, or `user:pass@proxy:3128`
 * without a scheme) are removed, leaving `http://proxy:3128`. The hosts still get the full values; only
 * the published record is stripped.
 */
export function withoutProxyCredentials(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      isProxyUrlVariable(name) ? stripProxyCredentials(value) : value,
    ]),
  );
}
