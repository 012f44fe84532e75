/**
 * Runs a test's body; when it fails, logs the operator's last `lines` log lines with the failure
 * (`t.log`), so that a failure seen once in a full-suite run says what the operator was doing.
 */
export async function logOnFailure<T>(
  t: { log(message: string): void },
  logs: readonly string[],
  body: () => Promise<T>,
  lines = 80,
): Promise<T> {
  try {
    return await body();
  } catch (err) {
    const last = logs.slice(-lines);
    t.log(`the operator's last ${last.length} log lines:\n${last.join('\n')}`);
    throw err;
  }
}
