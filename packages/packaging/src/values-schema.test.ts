import test from 'ava';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './repo-root.js';

const CHART = join(REPO_ROOT, 'charts/wmco');
const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as Record<string, unknown>;
const defaults = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

function errors(values: unknown): string[] {
  return validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** Follows a local `$ref` (`#/definitions/<name>`). */
function resolve(node: Record<string, unknown>): Record<string, unknown> {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  const definitions = schema['definitions'] as Record<string, Record<string, unknown>>;
  return definitions[ref.replace('#/definitions/', '')] ?? node;
}

function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

test('values.yaml passes its schema', (t) => {
  t.deepEqual(errors(defaults), []);
});

test('the schema names every key of values.yaml (a key added without a schema entry fails)', (t) => {
  const described = (path: string[]): boolean => {
    let node = schema;
    for (const key of path) {
      const props = node['properties'] as Record<string, Record<string, unknown>> | undefined;
      const extra = node['additionalProperties'];
      const next =
        props?.[key] ?? (typeof extra === 'object' ? (extra as Record<string, unknown>) : undefined);
      if (!next) return false;
      node = resolve(next);
    }
    return true;
  };
  for (const path of leafPaths(defaults)) t.true(described(path), path.join(' > '));
});

test('wrong types, unknown keys and bad values are refused with the key named', (t) => {
  const withValue = (patch: Record<string, unknown>): Record<string, unknown> => ({ ...defaults, ...patch });
  t.deepEqual(errors(withValue({ replicas: '2' })), ['/replicas must be integer']);
  t.deepEqual(errors(withValue({ replicas: 0 })), ['/replicas must be >= 1']);
  t.deepEqual(errors(withValue({ replica: 2 })), [' must NOT have additional properties']);
  t.deepEqual(errors(withValue({ image: { repository: 'x', tag: '1', pullPolicy: 'Sometimes' } })), [
    '/image/pullPolicy must be equal to one of the allowed values',
  ]);
  t.deepEqual(
    errors(withValue({ servicesLog: { fileSize: 'big', fileAge: '', flushInterval: '' } })).length,
    1,
  );
  t.deepEqual(errors(withValue({ serviceMonitor: { enabled: 'yes', interval: '30s' } })), [
    '/serviceMonitor/enabled must be boolean',
  ]);
  t.deepEqual(errors(withValue({ privateKeySecretName: 'Cloud_Key' })).length, 1);
  t.deepEqual(errors(withValue({ providerPackages: ['@acme/wmco-provider-x'] })), []);
});
