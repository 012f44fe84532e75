const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
/** ANSI escape sequences: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ESC \`) and two-character escapes. */
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(${BEL}|${ESC}\\\\)?|${ESC}[@-_]`,
  'g',
);
/** C0 and C1 control characters, DEL, and the bidi controls that reorder what a terminal shows. */
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text that came from a host or an error, made safe to store and show: ANSI sequences removed, line
 * breaks and tabs turned into spaces, other control characters removed, and at most `max` characters.
 */
export function printableText(text: string, max = 1024): string {
  const flat = text
    .replace(ANSI, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(CONTROL, '');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
