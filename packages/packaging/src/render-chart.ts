import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  collectNamedTemplates,
  renderTemplate,
  type NamedTemplates,
  type TemplateData,
} from './chart-template.js';
import { parseManifests, type ManifestDoc } from './manifest-files.js';

export interface RenderOptions {
  readonly releaseName?: string;
  readonly namespace?: string;
  /** Deep-merged over values.yaml, like `helm template --set`/`-f`. */
  readonly values?: Readonly<Record<string, unknown>>;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Helm's values merge: maps merge key by key, `null` deletes a default key, anything else replaces. */
export function mergeValues(
  base: Record<string, unknown>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    if (value === null) delete out[key];
    else out[key] = isMap(prev) && isMap(value) ? mergeValues(prev, value) : value;
  }
  return out;
}

/** What the chart's templates see: `.Values` (defaults merged with overrides), `.Release`, `.Chart`. */
export function chartData(chartDir: string, options: RenderOptions = {}): TemplateData {
  const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
  const defaults = (parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Record<
    string,
    unknown
  >;
  return {
    Values: mergeValues(defaults, options.values ?? {}),
    Release: {
      Name: options.releaseName ?? 'wmco',
      Namespace: options.namespace ?? 'default',
      Service: 'Helm',
    },
    Chart: { Name: chart['name'], Version: chart['version'], AppVersion: chart['appVersion'] },
  };
}

/** The `{{ define }}`s of the chart's `templates/_*.tpl` files. */
export function chartNamedTemplates(chartDir: string): NamedTemplates {
  const dir = join(chartDir, 'templates');
  const named: NamedTemplates = new Map();
  for (const f of readdirSync(dir)
    .filter((x) => /^_.*\.tpl$/.test(x))
    .sort())
    collectNamedTemplates(readFileSync(join(dir, f), 'utf8'), `templates/${f}`, named);
  return named;
}

/** Renders every template of a chart (files starting with `_` and NOTES.txt excluded), as `helm template` does. */
export function renderChart(chartDir: string, options: RenderOptions = {}): ManifestDoc[] {
  const data = chartData(chartDir, options);
  const named = chartNamedTemplates(chartDir);
  const dir = join(chartDir, 'templates');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('_'))
    .sort()
    .flatMap((f) => {
      const source = `templates/${f}`;
      return parseManifests(renderTemplate(readFileSync(join(dir, f), 'utf8'), data, source, named), source);
    });
}
