import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Every package a module reaches through static imports (`import`/`export ... from`), not `import()`. */
export async function staticPackages(
  file: string,
  seen = new Set<string>(),
  out = new Set<string>(),
): Promise<Set<string>> {
  if (seen.has(file)) return out;
  seen.add(file);
  const text = await readFile(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
    const spec = (m[1] ?? m[2])!;
    if (spec.startsWith('.')) await staticPackages(resolve(dirname(file), spec), seen, out);
    else out.add(spec);
  }
  return out;
}
