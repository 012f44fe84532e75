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
