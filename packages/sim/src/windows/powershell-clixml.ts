/**
 * How powershell.exe writes an error to stderr when stderr is not a console (an SSH exec without a pty):
 * CLIXML, `#< CLIXML` then one `<Objs>` with an `<S S="Error">` element per line of the formatted error
 * record, each line ending `_x000D__x000A_` (PowerShell/PowerShell #5912, #16678; ansible/ansible #67964).
 * Lines longer than the formatting width are wrapped into several elements: 120 columns, the width
 * Windows PowerShell 5.1 formats to when it has no console window (review finding B9; not measured).
 */
export const CLIXML_WRAP_COLUMNS = 120;

const OBJS = '<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">';

/** What a terminating error of the -EncodedCommand script looks like on the console, line by line. */
export interface ErrorRecordText {
  readonly message: string;
  /** e.g. `NotSpecified: (:) [], MethodInvocationException`. */
  readonly category: string;
  readonly errorId: string;
}

function encode(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')
    .replace(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f]/g,
      (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
    );
}

function wrap(line: string): string[] {
  if (line.length <= CLIXML_WRAP_COLUMNS) return [line];
  const out: string[] = [];
  for (let i = 0; i < line.length; i += CLIXML_WRAP_COLUMNS) out.push(line.slice(i, i + CLIXML_WRAP_COLUMNS));
  return out;
}

/** The console lines of an uncaught error of a one-line script, as 5.1 formats it. */
export function errorRecordLines(e: ErrorRecordText): string[] {
  return [
    ...e.message.split(/\r?\n/),
    'At line:1 char:1',
    `    + CategoryInfo          : ${e.category}`,
    `    + FullyQualifiedErrorId : ${e.errorId}`,
    '',
  ];
}

/** stderr of powershell.exe -EncodedCommand for these console lines. */
export function cliXmlStderr(lines: readonly string[]): string {
  const elements = lines
    .flatMap(wrap)
    .map((l) => `<S S="Error">${encode(`${l}\r\n`)}</S>`)
    .join('');
  return `#< CLIXML\r\n${OBJS}${elements}</Objs>`;
}

/** stderr of an uncaught error of the -EncodedCommand script. */
export function cliXmlError(e: ErrorRecordText): string {
  return cliXmlStderr(errorRecordLines(e));
}
