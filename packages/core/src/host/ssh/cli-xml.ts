/**
 * powershell.exe writes its error stream as CLIXML when stderr is not a console (an SSH exec without a pty,
 * PowerShell/PowerShell #5912 and #16678): a `#< CLIXML` line, then `<Objs ...>` with one `<S S="Error">`
 * element per line of the error record, characters XML cannot hold written `_xHHHH_` (`_x000D__x000A_` for a
 * line break). This turns such text back into the lines a console would show; other text is returned as is.
 */
export function readableStderr(text: string): string {
  const start = text.indexOf('#< CLIXML');
  if (start < 0) return text;
  const lines: string[] = [];
  for (const m of text.slice(start).matchAll(/<S S="(?:Error|error)">([\s\S]*?)<\/S>/g)) {
    lines.push(decodeXmlText(m[1] ?? ''));
  }
  return `${text.slice(0, start)}${lines.join('')}`.replace(/\r\n/g, '\n').trimEnd();
}

function decodeXmlText(s: string): string {
  return s
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
