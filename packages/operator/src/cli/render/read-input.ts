import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';

/** Reads a file named on the command line; a missing or unreadable file is a clear error naming it. */
export async function readInputFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      `cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/** Every YAML (or JSON) document in a file; a syntax error is reported with the file and line. */
export async function readYamlDocuments(path: string, what: string): Promise<unknown[]> {
  const text = await readInputFile(path, what);
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const [error] = doc.errors;
    if (error) {
      const line = error.linePos?.[0]?.line;
      throw new Error(
        `${what} ${path} is not valid YAML${line ? ` (line ${line})` : ''}: ${error.message.split('\n')[0]}`,
      );
    }
  }
  return list.map((d) => d.toJS() as unknown).filter((v) => v !== null && v !== undefined);
}

/** True for a plain object (not an array or a scalar). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
