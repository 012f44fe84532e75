import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the benchmarks keep the realistic payload: `$XDG_CACHE_HOME/wmco-ts`, else the repository's `node_modules/.cache/wmco-ts`. */
export function cacheDir(): string {
  const xdg = process.env['XDG_CACHE_HOME'];
  if (xdg) return join(xdg, 'wmco-ts');
  return fileURLToPath(new URL('../../../../node_modules/.cache/wmco-ts', import.meta.url));
}
