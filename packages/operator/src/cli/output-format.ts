import { stringify } from 'yaml';

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';

const FORMATS: readonly OutputFormat[] = ['table', 'wide', 'json', 'yaml'];

/** Parses `-o`; kubectl's default (no flag) is the table. */
export function parseOutputFormat(value: string | undefined): OutputFormat {
  const v = value ?? 'table';
  if ((FORMATS as readonly string[]).includes(v)) return v as OutputFormat;
  throw new Error(`unknown output format '${v}': use one of ${FORMATS.join(', ')}`);
}

/** Serialises structured output for `-o json|yaml`. */
export function renderStructured(format: 'json' | 'yaml', value: unknown): string {
  return format === 'json' ? JSON.stringify(value, undefined, 2) : stringify(value).trimEnd();
}
