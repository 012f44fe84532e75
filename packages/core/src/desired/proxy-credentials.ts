/** `scheme://` at the start of a URL (RFC 3986 §3.1). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The variables whose values are proxy URLs (NO_PROXY is a list of hosts: nothing secret in it). */
const PROXY_URL_VARIABLE = /^(https?|all|ftp)_proxy$/i;

/** Whether the environment variable `name` holds a proxy URL (HTTP_PROXY, https_proxy, ALL_PROXY, ...). */
export function isProxyUrlVariable(name: string): boolean {
  return PROXY_URL_VARIABLE.test(name);
}

interface Split {
  /** The scheme with its `//`, or '' (`user:pass@proxy:3128` is a proxy URL too). */
  readonly scheme: string;
  /** The userinfo without its `@`; undefined when there is none. */
  readonly userinfo: string | undefined;
  /** The host, port, path, ... after the userinfo. */
  readonly rest: string;
}

/**
 * A proxy value's parts. The authority ends at the first `/`, `?`, `#` or `\` after the scheme, and the
 * userinfo is everything up to its LAST `@` (as Go's net/url and WHATWG URL parse it), so an unencoded `@`
 * in a password, a percent-encoded one, or an IPv6 host in brackets all split where the proxy client
 * splits them.
 */
function split(value: string): Split {
  const trimmed = value.trim();
  const scheme = SCHEME.exec(trimmed)?.[0] ?? '';
  const afterScheme = trimmed.slice(scheme.length);
  const end = afterScheme.search(/[/?#\\]/);
  const authority = end < 0 ? afterScheme : afterScheme.slice(0, end);
  const at = authority.lastIndexOf('@');
  if (at < 0) return { scheme, userinfo: undefined, rest: afterScheme };
  return { scheme, userinfo: authority.slice(0, at), rest: afterScheme.slice(at + 1) };
}

/** `value` with its userinfo shown as `***` (`http://***@proxy:3128`): for events, logs and plans. */
export function redactProxyCredentials(value: string): string {
  const s = split(value);
  return s.userinfo === undefined ? value : `${s.scheme}***@${s.rest}`;
}

/** `value` without its userinfo (`http://proxy:3128`): for records that must still name the proxy. */
export function stripProxyCredentials(value: string): string {
  const s = split(value);
  return s.userinfo === undefined ? value : `${s.scheme}${s.rest}`;
}

/**
 * The secret text a proxy value carries, in every form it may be printed in: the userinfo as written and
 * percent-decoded, and the password alone. Empty when the value has no userinfo.
 */
export function proxyCredentials(value: string): string[] {
  const { userinfo } = split(value);
  if (userinfo === undefined || userinfo === '') return [];
  const password = userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : '';
  const forms = [userinfo, password].flatMap((s) => [s, decoded(s)]);
  return [...new Set(forms.filter((s) => s !== ''))];
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
