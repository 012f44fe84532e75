/** A Windows path as steps may write it, for comparison: lower case, backslashes. */
const normal = (text: string): string => text.toLowerCase().replaceAll('/', '\\');

/**
 * Whether a path is named in `texts` (command lines, scripts, the JSON of steps), as written or as JSON
 * writes it (doubled backslashes), whatever the case and the slashes.
 */
export function namedIn(texts: readonly string[]): (path: string) => boolean {
  const named = normal(texts.join('\n'));
  return (path) => {
    const p = normal(path);
    return named.includes(p) || named.includes(JSON.stringify(p).slice(1, -1));
  };
}
