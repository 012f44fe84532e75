import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaptureRecord, HostcheckResult } from '@wmco/core/internal';

/** What `wmco hostcheck` wrote, for its summary. */
export interface HostcheckWritten {
  readonly dir: string;
  readonly files: readonly string[];
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The fixture files (docs/real-windows-check.md): `<name>.json` per source (what the cmdlet, CIM class,
 * registry key or .NET type returned, each property with its .NET type), `observe.json` (the host
 * module's observe request and its result or error) and `index.json` (what was captured where and when).
 */
export async function writeHostcheckFiles(
  dir: string,
  meta: {
    readonly address: string;
    readonly capturedAt: string;
    readonly moduleSha256: string;
    readonly captureSha256: string;
  },
  result: HostcheckResult,
): Promise<HostcheckWritten> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const write = async (name: string, value: unknown): Promise<void> => {
    await writeFile(join(dir, name), json(value));
    files.push(name);
  };
  await write('observe.json', { ...meta, request: result.query, ...result.observe });
  for (const r of result.records) await write(`${r.name}.json`, fixture(meta, r));
  await write('index.json', {
    tool: 'wmco hostcheck',
    format: 1,
    ...meta,
    observe:
      'error' in result.observe
        ? { file: 'observe.json', error: result.observe.error }
        : { file: 'observe.json' },
    fixtures: result.records.map((r) => ({
      name: r.name,
      file: `${r.name}.json`,
      command: r.command,
      items: r.items.length,
      error: r.error,
    })),
  });
  return { dir, files };
}

function fixture(meta: { readonly address: string; readonly capturedAt: string }, r: CaptureRecord): unknown {
  return {
    name: r.name,
    command: r.command,
    address: meta.address,
    capturedAt: meta.capturedAt,
    error: r.error,
    items: r.items,
  };
}
