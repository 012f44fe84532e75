/** ANSI escape sequences: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ESC \`) and two-character escapes. */
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?|\u001b[@-_]/g;
/** C0 and C1 control characters, DEL, and the bidi overrides that reorder what a terminal shows. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

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
