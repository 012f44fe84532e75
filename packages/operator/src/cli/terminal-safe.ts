/** Control characters (C0, DEL, C1) and the bidi controls that reorder what a terminal shows. */
const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text as a terminal may print it: every control character (ESC of an ANSI sequence, CR, BEL, bidi
 * overrides...) shown as a visible `\uXXXX` escape, so a value someone wrote into a ConfigMap can neither
 * recolour, move the cursor, retitle the window nor hide text.
 */
export function terminalSafe(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
