/** One `FROM` of a Containerfile: its base (build arguments expanded), its name, and its COPY lines. */
export interface Stage {
  readonly from: string;
  readonly name?: string;
  readonly copies: readonly { readonly from?: string; readonly src: string; readonly dest: string }[];
}

/** The global `ARG name=default` lines (those before the first FROM). */
export function globalArgs(text: string): Map<string, string> {
  const head = text.slice(0, text.search(/^FROM /m));
  return new Map([...head.matchAll(/^ARG (\w+)=(\S*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/**
 * The stages of a Containerfile (line continuations joined), FROM lines expanded with `args` as a
 * builder expands global build arguments there. Enough of the format for the checks that stand in for
 * a build where no container engine runs.
 */
export function containerStages(text: string, args: ReadonlyMap<string, string>): Stage[] {
  const expand = (s: string): string => s.replace(/\$\{(\w+)\}/g, (_, k: string) => args.get(k) ?? '');
  const stages: { from: string; name?: string; copies: Stage['copies'][number][] }[] = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const from = /^FROM (\S+)(?: AS (\S+))?/i.exec(line);
    if (from) stages.push({ from: expand(from[1]!), ...(from[2] ? { name: from[2] } : {}), copies: [] });
    const copy = /^COPY (.*)$/.exec(line);
    if (!copy || stages.length === 0) continue;
    const words = copy[1]!.trim().split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const [src = '', dest = ''] = words.filter((w) => !w.startsWith('--'));
    const fromFlag = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
    stages.at(-1)!.copies.push({ ...(fromFlag ? { from: fromFlag } : {}), src, dest });
  }
  return stages;
}
