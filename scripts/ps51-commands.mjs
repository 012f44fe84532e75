#!/usr/bin/env node
// Builds packages/core/assets/ps51/commands.json, the Windows PowerShell 5.1 command profile of the 5.1 gate
// (docs/ps51-gate.md), from Microsoft's own documentation sources: MicrosoftDocs/PowerShell-Docs
// (reference/5.1) and MicrosoftDocs/windows-powershell-docs (docset/winserver2019-ps and winserver2022-ps).
// For each command it takes every parameter of every syntax block (a parameter the 2019 and 2022 pages
// disagree on is kept only when both have it), the parameter aliases, the positions and the accepted
// values, and records the page it came from.
//   node scripts/ps51-commands.mjs <PowerShell-Docs git dir> <windows-powershell-docs git dir>
/* eslint-disable @typescript-eslint/explicit-function-return-type -- plain JavaScript, run by hand */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [psDocs, winDocs] = process.argv.slice(2);
if (!psDocs || !winDocs)
  throw new Error('usage: ps51-commands.mjs <PowerShell-Docs git dir> <windows-powershell-docs git dir>');
const OUT = new URL('../packages/core/assets/ps51/commands.json', import.meta.url);
const TYPES_OUT = new URL('../packages/core/assets/ps51/types.json', import.meta.url);
const typesManual = JSON.parse(
  readFileSync(new URL('../packages/core/assets/ps51/types.manual.json', import.meta.url), 'utf8'),
);
const manual = JSON.parse(
  readFileSync(new URL('../packages/core/assets/ps51/commands.manual.json', import.meta.url), 'utf8'),
);

const git = (dir, ...args) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 }).replace(
    /\r\n/g,
    '\n',
  );
const head = (dir) => git(dir, 'rev-parse', 'HEAD').trim();
const files = (dir, prefix) => git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', prefix).split('\n');
const psFiles = files(psDocs, 'reference/5.1');
const ws2019 = files(winDocs, 'docset/winserver2019-ps');
const ws2022 = files(winDocs, 'docset/winserver2022-ps');
const find = (list, name) => list.find((f) => f.toLowerCase().endsWith(`/${name.toLowerCase()}.md`));

/** Every parameter of the page's syntax blocks: `-Name <Type>` takes a value, `[-Name]` is a switch. */
function syntaxParameters(text) {
  const syntax = text.slice(text.indexOf('## SYNTAX'), text.indexOf('## DESCRIPTION'));
  const params = new Map();
  for (const block of syntax.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const m of block[1].matchAll(/(?:^|[\s[])-([A-Za-z0-9]+)\]?(\s+<[^>]+>)?/g)) {
      if (!params.has(m[1])) params.set(m[1], { kind: m[2] ? 'value' : 'switch', aliases: [] });
    }
  }
  return params;
}

/** The names in a yaml value: `a, b`, `[a, b]` or `[]` (then none). */
function names(value) {
  return value
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => /^[A-Za-z0-9]+$/.test(n));
}

/** Aliases, position and accepted values from the parameter's yaml blocks under `### -Name`. */
function describeParameter(p, section) {
  const yaml = section.match(/```yaml\n([\s\S]*?)```/g)?.join('\n') ?? '';
  const aliases = yaml.match(/^Aliases:[ \t]*(.+)$/m)?.[1];
  if (aliases) p.aliases = names(aliases);
  for (const pos of yaml.matchAll(/^Position:[ \t]*(\d+)/gm))
    p.position = Math.max(p.position ?? -1, Number(pos[1]));
  const accepted = yaml.match(/^Accepted values:[ \t]*(.+)$/m)?.[1];
  if (accepted) p.values = names(accepted);
}

/** Parameters of one documentation page: name -> {kind, position?, aliases, values?}. */
function parsePage(text) {
  const params = syntaxParameters(text);
  for (const section of text.split(/\n### -/).slice(1)) {
    const p = params.get(section.split(/\s/)[0]);
    if (p) describeParameter(p, section);
  }
  return params;
}

const online = (text) => text.match(/^online version:\s*(\S+)/m)?.[1]?.replace(/&wt\.mc_id=ps-gethelp/i, '');
const moduleName = (text) => text.match(/^Module Name:\s*(.+)$/m)?.[1]?.trim();

function entry(name) {
  const ps = find(psFiles, name);
  if (ps) {
    const text = git(psDocs, 'show', `HEAD:${ps}`);
    // A page without its `online version:` line: the address learn.microsoft.com gives every 5.1 page.
    const page = `https://learn.microsoft.com/powershell/module/${moduleName(text)?.toLowerCase()}/${name.toLowerCase()}?view=powershell-5.1`;
    return { text, params: parsePage(text), sources: [online(text) ?? page], module: moduleName(text) };
  }
  const a = find(ws2019, name);
  const b = find(ws2022, name);
  if (!a || !b)
    throw new Error(
      `${name}: no 5.1 page in PowerShell-Docs and no page in both winserver2019-ps and winserver2022-ps`,
    );
  const ta = git(winDocs, 'show', `HEAD:${a}`);
  const tb = git(winDocs, 'show', `HEAD:${b}`);
  const pa = parsePage(ta);
  const pb = parsePage(tb);
  for (const k of [...pa.keys()]) if (!pb.has(k)) pa.delete(k);
  return { text: ta, params: pa, sources: [online(ta) ?? a, online(tb) ?? b], module: moduleName(ta) };
}

const commandAliases = {};
/** "Windows PowerShell includes the following aliases for `X`:" and the list after it, on the 5.1 page. */
function pageAliases(name, text, source) {
  const front = text.match(/^aliases:\n((?:\s+-\s*\S+\n)+)/m);
  for (const a of front?.[1].matchAll(/-\s*(\S+)/g) ?? []) commandAliases[a[1]] = { command: name, source };
  const m = text.match(/following aliases for `[^`]+`:\s*\n((?:\s*-\s*`[^`]+`\s*\n)+)/);
  for (const a of m?.[1].matchAll(/`([^`]+)`/g) ?? []) commandAliases[a[1]] = { command: name, source };
}

function commandEntry(name) {
  const e = entry(name);
  const parameters = {};
  const parameterAliases = {};
  const values = {};
  let positional = 0;
  for (const [p, v] of [...e.params].sort(([x], [y]) => x.localeCompare(y))) {
    parameters[p] = v.kind;
    for (const a of v.aliases.filter((a) => a !== p)) parameterAliases[a] = p;
    if (v.values) values[p] = v.values;
    if (v.position !== undefined) positional = Math.max(positional, v.position + 1);
  }
  if (manual.remainingArguments.includes(name)) positional = -1;
  pageAliases(name, e.text, e.sources[0]);
  return {
    module: e.module,
    source: e.sources.join(' '),
    positional,
    parameters,
    ...(Object.keys(parameterAliases).length ? { parameterAliases } : {}),
    ...(Object.keys(values).length ? { acceptedValues: values } : {}),
  };
}

const commands = Object.fromEntries(manual.commandNames.map((name) => [name, commandEntry(name)]));
const out = {
  profile: manual.profile,
  generatedFrom: {
    'MicrosoftDocs/PowerShell-Docs': head(psDocs),
    'MicrosoftDocs/windows-powershell-docs': head(winDocs),
    by: 'scripts/ps51-commands.mjs (from commands.manual.json)',
  },
  commonParameters: manual.commonParameters,
  aliases: commandAliases,
  executables: manual.executables,
  shippedScripts: manual.shippedScripts,
  commands: { ...commands, ...manual.payloadCommands },
};
writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${Object.keys(out.commands).length} commands to ${OUT.pathname}`);

// about_Type_Accelerators (5.1): the accelerator table, name -> full type name. Every accelerator's type is
// a type of the profile.
const ACCELERATORS = 'reference/5.1/Microsoft.PowerShell.Core/About/about_Type_Accelerators.md';
const acceleratorPage = git(psDocs, 'show', `HEAD:${ACCELERATORS}`);
const accelerators = {};
const types = { ...typesManual.types };
for (const m of acceleratorPage.matchAll(/^\|\s*([A-Za-z0-9]+)\s*\|\s*\[([A-Za-z0-9_.]+)\]/gm)) {
  accelerators[m[1]] = {
    type: m[2],
    source:
      'https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_type_accelerators?view=powershell-5.1',
  };
  types[m[2]] ??= {
    source:
      'https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_type_accelerators?view=powershell-5.1',
  };
}
Object.assign(accelerators, typesManual.extraAccelerators);
for (const a of Object.values(typesManual.extraAccelerators)) types[a.type] ??= { source: a.source };
writeFileSync(
  TYPES_OUT,
  `${JSON.stringify({ profile: manual.profile, generatedFrom: out.generatedFrom, accelerators, types, cimArrayProperties: typesManual.cimArrayProperties }, null, 2)}\n`,
);
console.log(
  `wrote ${Object.keys(accelerators).length} accelerators and ${Object.keys(types).length} types to ${TYPES_OUT.pathname}`,
);
