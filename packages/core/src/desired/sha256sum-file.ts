const LINE = /^([0-9a-fA-F]{64}) [ *](.+)$/;

/**
 * Parses a `sha256sum` file (`<sha>  <path>` per line, as coreutils writes it) into a map keyed by the
 * path's basename (upstream parseShaFile). Blank lines are skipped. A malformed line or a basename that
 * appears twice is an error naming the line.
 */
export function parseSha256Sums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    const m = LINE.exec(line);
    if (!m) throw new Error(`sha256sum line ${i + 1} is not "<sha256>  <path>": ${JSON.stringify(line)}`);
    const [, sha = '', path = ''] = m;
    const name = path.split(/[\\/]/).pop() ?? '';
    if (name === '') throw new Error(`sha256sum line ${i + 1} has no file name`);
    if (sums.has(name)) throw new Error(`sha256sum line ${i + 1}: ${name} is listed twice`);
    sums.set(name, sha.toLowerCase());
  });
  return sums;
}
