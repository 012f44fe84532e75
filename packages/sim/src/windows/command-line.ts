/** Splits a Windows command line the way CommandLineToArgvW does for the cases services use. */
export function splitCommandLine(commandLine: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let any = false;
  for (const ch of commandLine) {
    if (ch === '"') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && /\s/.test(ch)) {
      if (any) args.push(current);
      current = '';
      any = false;
    } else {
      current += ch;
      any = true;
    }
  }
  if (any) args.push(current);
  return args;
}

/** The value of `--name=value` or `--name value` (first occurrence), or undefined. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
    if (a === name) return args[i + 1];
  }
  return undefined;
}
