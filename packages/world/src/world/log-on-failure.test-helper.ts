/** The level pino wrote a JSON log line at, or undefined for a line that is not one. */
function levelOf(line: string): string | undefined {
  return /"level":"([a-z]+)"/.exec(line)?.[1];
}

/**
 * Runs a test's body; when it fails, logs the operator's last `lines` log lines with the failure
 * (`t.log`), so that a failure seen once in a full-suite run says what the operator was doing. Debug lines
 * are left out (counted): a host that refuses connections writes one per retry, and they would push out
 * every line that says why. `lines` defaults to 80; `context()`, when given, adds what the test knows of
 * the world (e.g. a host's state) and runs only on failure.
 */
export async function logOnFailure<T>(
  t: { log(message: string): void },
  logs: readonly string[],
  body: () => Promise<T>,
  o: { readonly lines?: number; readonly context?: () => string } = {},
): Promise<T> {
  try {
    return await body();
  } catch (err) {
    const kept = logs.filter((l) => levelOf(l) !== 'debug');
    const last = kept.slice(-(o.lines ?? 80));
    t.log(
      `the operator's last ${last.length} log lines above debug (${logs.length - kept.length} debug lines left out):\n` +
        last.join('\n'),
    );
    if (o.context) t.log(o.context());
    throw err;
  }
}
