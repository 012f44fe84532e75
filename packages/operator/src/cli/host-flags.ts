import { readFile } from 'node:fs/promises';

/** `raw` as a whole number from `min` to `max`, or a clear error naming `flag`. */
export function integerFlag(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${flag}: "${raw}" is not a whole number from ${min} to ${max}`);
  return n;
}

/** The `--key` file's bytes, or a clear error naming the file. */
export async function readKeyFlag(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new Error(`--key: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}
