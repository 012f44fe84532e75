/**
 * A tokenizer for one PowerShell command line in argument mode, enough to read the pre-scripts the
 * operator sends (`C:\Temp\network-conf.ps1 -hostnameOverride 'x' -verbosity 0`). It never evaluates
 * anything: a token that PowerShell would expand (`$x`, `"$(...)"`, `@(...)`) is marked `expandable`, and
 * every operator (pipes, sub-expressions, script blocks, redirections) is an `operator` token, so the
 * simulator can refuse what it does not model instead of guessing.
 */
export type PsToken =
  | { readonly kind: 'word'; readonly text: string; readonly expandable: boolean }
  /** `-name` or `-name:value` (the value attached to the parameter). */
  | { readonly kind: 'parameter'; readonly name: string; readonly attached?: string }
  | { readonly kind: 'operator'; readonly text: string };

const OPERATOR_CHARS = new Set([';', '|', '&', '(', ')', '{', '}', '<', '>', ',']);
const DASHES = new Set(['-', '\u2013', '\u2014', '\u2015']);

interface Word {
  text: string;
  expandable: boolean;
  any: boolean;
  /** Unquoted so far, and starting with a dash: a parameter name. */
  bareDash: boolean;
}

const PARAMETER = /^[-\u2013\u2014\u2015][A-Za-z_?][\w-]*(:.*)?$/s;
const PARAMETER_COLON = /^[-\u2013\u2014\u2015][A-Za-z_?][\w-]*:$/;
const newWord = (): Word => ({ text: '', expandable: false, any: false, bareDash: false });

/** A doubled quote inside a string of that quote is one literal quote. */
function doubled(line: string, j: number, quote: string): boolean {
  return line[j] === quote && line[j + 1] === quote;
}

/** Reads a quoted string starting at `i` (the quote); returns the index after the closing quote. */
function readQuoted(line: string, i: number, word: Word): number {
  const quote = line[i]!;
  for (let j = i + 1; j < line.length; j++) {
    const ch = line[j]!;
    if (doubled(line, j, quote)) {
      word.text += quote;
      j++;
    } else if (ch === quote) {
      return j + 1;
    } else if (quote === '"' && (ch === '`' || ch === '$')) {
      // `n, `t ... and $x are what PowerShell interprets inside double quotes.
      word.expandable = true;
      word.text += ch === '`' ? (line[++j] ?? '') : ch;
    } else {
      word.text += ch;
    }
  }
  throw new Error(`The string is missing the terminator: ${quote}.`);
}

function finish(word: Word, out: PsToken[]): void {
  if (!word.any) return;
  if (!word.bareDash || !PARAMETER.test(word.text)) {
    out.push({ kind: 'word', text: word.text, expandable: word.expandable });
    return;
  }
  const body = word.text.slice(1);
  const colon = body.indexOf(':');
  out.push(
    colon < 0
      ? { kind: 'parameter', name: body }
      : { kind: 'parameter', name: body.slice(0, colon), attached: body.slice(colon + 1) },
  );
}

/** The operator starting at `i`, if any. */
function operatorAt(line: string, i: number): string | undefined {
  const ch = line[i]!;
  const two = line.slice(i, i + 2);
  if (['&&', '||', '>>', '$(', '@('].includes(two)) return two;
  return OPERATOR_CHARS.has(ch) ? ch : undefined;
}

/** Splits one command line into tokens. Throws on an unterminated string (PowerShell's parse error). */
export function tokenizePowerShell(line: string): PsToken[] {
  const out: PsToken[] = [];
  let word = newWord();
  const next = (): void => {
    finish(word, out);
    word = newWord();
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    const operator = operatorAt(line, i);
    if (/\s/.test(ch)) {
      next();
      i++;
    } else if (ch === '#' && !word.any) {
      break; // a comment runs to the end of the line
    } else if (operator !== undefined) {
      next();
      out.push({ kind: 'operator', text: operator });
      i += operator.length;
    } else {
      i = readWordPart(line, i, word);
    }
  }
  next();
  return out;
}

/** One piece of a word: a quoted string, an escaped character or a plain character. */
function readWordPart(line: string, i: number, word: Word): number {
  const ch = line[i]!;
  if (ch === "'" || ch === '"') {
    // `-name:'value'` stays a parameter with a quoted value; `'-name'` and `-a'b'` are plain words.
    if (!PARAMETER_COLON.test(word.text)) word.bareDash = false;
    word.any = true;
    return readQuoted(line, i, word);
  }
  if (ch === '`') {
    word.any = true;
    word.text += line[i + 1] ?? '';
    return i + 2;
  }
  if (!word.any) word.bareDash = DASHES.has(ch);
  if (ch === '$' || (ch === '@' && !word.any)) word.expandable = true;
  word.any = true;
  word.text += ch;
  return i + 1;
}

/** Splits tokens into statements at `;`. */
export function statements(tokens: readonly PsToken[]): PsToken[][] {
  const out: PsToken[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'operator' && t.text === ';') out.push([]);
    else out.at(-1)!.push(t);
  }
  return out.filter((s) => s.length > 0);
}
