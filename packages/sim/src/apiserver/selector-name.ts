/**
 * The object name a list or watch is limited to by its field selector, as kube-apiserver's
 * RequestInfoFactory finds it: a `metadata.name=<n>` (or `==`) term, alone or among other terms, whose
 * value is a valid path segment. RBAC then authorizes the list/watch against `resourceNames` with that
 * name, so a Role granting `list`/`watch` on one Secret allows `?fieldSelector=metadata.name=<that>`.
 * An unparsable selector names nothing (the list handler rejects it later).
 */
export function nameFromFieldSelector(selector: string | null | undefined): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*(==|=)\s*(.*?)\s*$/.exec(term);
    if (!m) continue;
    const name = m[2] ?? '';
    // path.IsValidPathSegmentName: not empty, not `.` or `..`, no `/` or `%`.
    if (name === '' || name === '.' || name === '..' || /[/%]/.test(name)) return undefined;
    return name;
  }
  return undefined;
}
