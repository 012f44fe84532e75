/**
 * validation.IsQualifiedName (k8s.io/apimachinery pkg/util/validation/validation.go): an optional DNS
 * subdomain prefix, '/', and a name of at most 63 characters; the messages are upstream's.
 */
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** What is wrong with a qualified name (label key, reporting controller), in upstream's words. */
export function qualifiedNameProblems(v: string): string[] {
  const parts = v.split('/');
  if (parts.length > 2) return [`a qualified name ${QUALIFIED_NAME_MESSAGE.slice('name part '.length)}`];
  const name = parts[parts.length - 1] ?? '';
  const out: string[] = [];
  if (parts.length === 2 && !DNS_SUBDOMAIN.test(parts[0] ?? '')) out.push(`prefix part ${SUBDOMAIN_MESSAGE}`);
  if (name === '') out.push('name part must be non-empty');
  else if (name.length > 63) out.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) out.push(QUALIFIED_NAME_MESSAGE);
  return out;
}
