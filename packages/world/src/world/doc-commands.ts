import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rule of the doc-commands test (issue 30 item 2), in one place:
 *
 * - Only fenced blocks whose info string is `sh` are read (not `yaml`, `text`, ...), indented ones (in a
 *   list item) included.
 * - A line ending in `\` is joined with the next; blank lines and lines that are only a comment are dropped.
 * - A command targets the simulated world when its first word is `kubectl` or `wmco`, or it starts with
 *   `pnpm wmco` (the checkout's CLI). Any other command (`npm`, `export`, `helm`, `docker`, `cp`,
 *   `pnpm --filter ...`) does not target the world and is not run.
 * - Of those, the ones in `EXCLUDED` are not run either, each for the reason given there (a real Windows
 *   host, or a command that starts a world of its own).
 * - A placeholder the docs write as `<name>` (`<node>`, `<machine>`, ...) is filled with the world's value
 *   before the command runs (`fillPlaceholders`); one the world has no value for fails the command.
 * - The commands of `DOCS` run in a BYOH world (platform None), those of `MACHINE_DOCS` in a vSphere world
 *   with a Windows MachineSet.
 */
export const DOCS = [
  'README.md',
  'docs/install.md',
  'docs/byoh.md',
  'docs/upgrades.md',
  'docs/scheduling.md',
  'docs/storage.md',
  'docs/disconnected.md',
  'docs/limitations.md',
] as const;

/** Docs whose commands act on Machines. */
export const MACHINE_DOCS = ['docs/machines.md'] as const;

/** Command prefixes (as written in the docs) the rule leaves out, and why. */
export const EXCLUDED: Readonly<Record<string, string>> = {
  'pnpm wmco sim ':
    'starts a world of its own (the test world stands for it; operator-logs.e2e runs `wmco sim`)',
  'wmco sim ': 'starts a world of its own (the test world stands for it; operator-logs.e2e runs `wmco sim`)',
  'pnpm wmco preflight 10.0.0.5': 'needs a real Windows host at 10.0.0.5',
  'pnpm wmco hostcheck 10.0.0.5': 'needs a real Windows host at 10.0.0.5',
};

export interface DocCommand {
  readonly doc: string;
  /** 1-based line of the command's first line in the doc. */
  readonly line: number;
  readonly command: string;
}

export interface DocCommands {
  /** What the rule runs, in document order. */
  readonly run: readonly DocCommand[];
  /** What it leaves out, with the reason. */
  readonly skipped: readonly (DocCommand & { readonly why: string })[];
}

/** The commands of every `sh` fence of one markdown text, continuation lines joined. */
export function shCommands(doc: string, text: string): DocCommand[] {
  const out: DocCommand[] = [];
  let inSh: boolean | undefined; // undefined: outside a fence
  let pending: { line: number; parts: string[] } | undefined;
  text.split('\n').forEach((raw, i) => {
    const fence = raw.trimStart();
    if (fence.startsWith('```')) {
      inSh = inSh === undefined ? fence.slice(3).trim().split(/\s+/)[0] === 'sh' : undefined;
      return;
    }
    if (inSh !== true) return;
    const cur = pending ?? { line: i + 1, parts: [] };
    const continued = raw.trimEnd().endsWith('\\');
    cur.parts.push(continued ? raw.trimEnd().slice(0, -1).trim() : raw.trim());
    pending = continued ? cur : undefined;
    const command = cur.parts.join(' ').trim();
    if (!continued && command !== '' && !command.startsWith('#')) out.push({ doc, line: cur.line, command });
  });
  return out;
}

function targetsWorld(command: string): boolean {
  const first = command.split(/\s+/)[0];
  return first === 'kubectl' || first === 'wmco' || command.startsWith('pnpm wmco ');
}

/**
 * `command` with each `<name>` placeholder replaced by `values[name]`; throws naming a placeholder the
 * world has no value for. Shell redirections (`<`, `<<`) are not placeholders: a placeholder is `<` then
 * a letter, then letters, digits or `-`, then `>`.
 */
export function fillPlaceholders(command: string, values: Readonly<Record<string, string>>): string {
  return command.replace(/<([a-z][a-z0-9-]*)>/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for the placeholder ${whole}`);
    return value;
  });
}

/** The docs' commands split by the rule. */
export function docCommands(repoRoot: string, docs: readonly string[] = DOCS): DocCommands {
  const run: DocCommand[] = [];
  const skipped: (DocCommand & { why: string })[] = [];
  for (const doc of docs) {
    for (const c of shCommands(doc, readFileSync(join(repoRoot, doc), 'utf8'))) {
      const excluded = Object.entries(EXCLUDED).find(([prefix]) => c.command.startsWith(prefix));
      if (!targetsWorld(c.command)) skipped.push({ ...c, why: 'not a kubectl or wmco command' });
      else if (excluded) skipped.push({ ...c, why: excluded[1] });
      else run.push(c);
    }
  }
  return { run, skipped };
}
