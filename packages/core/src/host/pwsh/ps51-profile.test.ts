import { readFile } from 'node:fs/promises';
import test from 'ava';
import { PS51_GATE_DIR } from './ps51-gate.js';

// The 5.1 profile the gate reads: every entry says where it comes from, and the generated parts hold only
// what a documentation page can give (names, not stray lines of the pages' yaml).

interface CommandEntry {
  readonly source: string;
  readonly positional: number;
  readonly parameters: Record<string, string>;
  readonly parameterAliases?: Record<string, string>;
  readonly acceptedValues?: Record<string, string[]>;
}

async function load(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(`${PS51_GATE_DIR}${file}`, 'utf8')) as Record<string, unknown>;
}

const NAME = /^[A-Za-z][A-Za-z0-9]*$/;

test('every 5.1 command names its source and only well-formed parameters, aliases and values', async (t) => {
  const commands = (await load('commands.json')).commands as Record<string, CommandEntry>;
  t.true(Object.keys(commands).length >= 80);
  for (const [name, c] of Object.entries(commands)) {
    t.regex(c.source, /https:\/\/learn\.microsoft\.com\/|hns\.psm1/, name);
    t.true(Number.isInteger(c.positional) && c.positional >= -1, name);
    for (const [p, kind] of Object.entries(c.parameters)) {
      t.regex(p, NAME, `${name} -${p}`);
      t.true(kind === 'value' || kind === 'switch', `${name} -${p}`);
    }
    for (const [alias, target] of Object.entries(c.parameterAliases ?? {})) {
      t.regex(alias, NAME, `${name} alias ${alias}`);
      t.true(target in c.parameters, `${name} alias ${alias} -> ${target}`);
    }
    for (const [p, values] of Object.entries(c.acceptedValues ?? {})) {
      t.true(p in c.parameters, `${name} values of ${p}`);
      for (const v of values) t.regex(v, /^[A-Za-z0-9]+$/, `${name} -${p} ${v}`);
    }
  }
});

test('Windows PowerShell 5.1 parameters only: the 6+/7 additions are absent', async (t) => {
  const commands = (await load('commands.json')).commands as Record<string, CommandEntry>;
  const lacks = (name: string, ...params: string[]): void => {
    for (const p of params) t.false(p in (commands[name]?.parameters ?? {}), `${name} -${p}`);
  };
  lacks('ForEach-Object', 'Parallel', 'ThrottleLimit', 'TimeoutSeconds', 'AsJob');
  lacks('ConvertFrom-Json', 'AsHashtable', 'Depth', 'NoEnumerate');
  lacks('ConvertTo-Json', 'AsArray', 'EnumsAsStrings', 'EscapeHandling');
  lacks('Get-Content', 'AsByteStream');
  lacks('Join-Path', 'AdditionalChildPath', 'Extension');
  lacks('Sort-Object', 'Top', 'Bottom', 'Stable');
  lacks('Select-Object', 'SkipIndex', 'CaseInsensitive');
  lacks('Start-Process', 'Environment');
  lacks('Get-NetRoute', 'State', 'InterfaceMetric');
  t.false(
    'ProgressAction' in ((await load('commands.json')).commonParameters as { parameters: object }).parameters,
  );
});

test('every .NET type and CIM array property names its source', async (t) => {
  const types = await load('types.json');
  for (const [name, entry] of Object.entries(types.types as Record<string, { source: string }>))
    t.regex(entry.source, /learn\.microsoft\.com|about_Type_Accelerators|System\./, name);
  for (const [name, entry] of Object.entries(types.cimArrayProperties as Record<string, { source: string }>))
    t.true(entry.source.length > 0, name);
  const accelerators = types.accelerators as Record<string, { type: string }>;
  t.is(accelerators.int?.type, 'System.Int32');
  t.false('semver' in accelerators, '[semver] is PowerShell 6+');
});
