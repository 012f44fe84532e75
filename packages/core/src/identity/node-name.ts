/** A valid Node name: a lower-case RFC 1123 subdomain of at most 253 ASCII characters. */
const RFC1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_NAME = 253;
// Printable ASCII only: checked before lower-casing, because Unicode lower-casing folds some non-ASCII
// letters into ASCII ones (the Kelvin sign K becomes k), which would let two spellings claim one name.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Why `name` cannot be a Node name, compared exactly (no normalisation); undefined when it can. */
export function nodeNameProblem(name: string): string | undefined {
  if (name === '') return 'the node name is empty';
  if (!PRINTABLE_ASCII.test(name)) return `node name ${JSON.stringify(name)} is not ASCII`;
  if (name.length > MAX_NAME) return `node name ${name.slice(0, 40)}… is longer than ${MAX_NAME} characters`;
  if (!RFC1123_SUBDOMAIN.test(name))
    return `node name ${JSON.stringify(name)} is not a lower-case RFC 1123 subdomain`;
  return undefined;
}

export type NodeNameResult =
  { readonly ok: true; readonly name: string } | { readonly ok: false; readonly reason: string };

/**
 * The name a kubelet registers for a host (reference §1.9 "Node names"): `--hostname-override` when set,
 * else the computer name, trimmed and lower-cased. This is the one normalisation the operator applies;
 * everything after it (registrations, CSR common names, SANs) is compared exactly. Input that is not
 * printable ASCII is refused before lower-casing.
 */
export function kubeletNodeName(reported: string): NodeNameResult {
  const raw = reported.trim();
  if (!PRINTABLE_ASCII.test(raw))
    return { ok: false, reason: `the host reported a name that is not ASCII: ${JSON.stringify(raw)}` };
  const name = raw.toLowerCase();
  const problem = nodeNameProblem(name);
  return problem === undefined ? { ok: true, name } : { ok: false, reason: problem };
}
