/**
 * Windows paths in the model: `C:\k\x`, `C:/k/x`, `/C:/k/x` and `c:\K\X` are one file. `key` is the
 * case-folded lookup key; the model keeps the spelling it was created with for display.
 */
export function normalizeWindowsPath(path: string): string | undefined {
  let p = path.replace(/\//g, '\\');
  if (/^\\[A-Za-z]:/.test(p)) p = p.slice(1);
  if (!/^[A-Za-z]:(\\|$)/.test(p)) return undefined;
  const parts = p
    .slice(2)
    .split('\\')
    .filter((s) => s !== '' && s !== '.');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `${p.slice(0, 1).toUpperCase()}:\\${out.join('\\')}`;
}

export function pathKey(normalized: string): string {
  return normalized.toLowerCase();
}

/** Parent of a normalized path (`C:\` for top-level entries). */
export function parentPath(normalized: string): string {
  const i = normalized.lastIndexOf('\\');
  return i <= 2 ? normalized.slice(0, 3) : normalized.slice(0, i);
}

export function baseName(normalized: string): string {
  return normalized.slice(normalized.lastIndexOf('\\') + 1);
}
