/**
 * Runs shutdown steps in order, each given at most `ms`: a step that has not finished by then is left
 * behind (its promise keeps running) and the next one starts. Resolves once every step ended or was left
 * behind; then throws one error naming each step that failed or did not finish, so a test whose world
 * would not stop fails naming the part that hung, instead of stalling every test after it.
 */
export async function boundedSteps(
  steps: readonly (readonly [name: string, run: () => Promise<unknown>])[],
  ms: number,
): Promise<void> {
  const problems: string[] = [];
  for (const [name, run] of steps) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    try {
      const outcome = await Promise.race([run().then(() => 'done' as const), late]);
      if (outcome === 'late') problems.push(`${name} did not finish within ${ms} ms`);
    } catch (err) {
      problems.push(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (problems.length > 0) throw new Error(`stopping the simulated world: ${problems.join('; ')}`);
}
