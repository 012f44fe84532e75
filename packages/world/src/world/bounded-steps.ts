import { settledWithin } from './settled-within.js';

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
    const r = await settledWithin(run(), ms);
    if (r === 'late') problems.push(`${name} did not finish within ${ms} ms`);
    else if (!r.ok)
      problems.push(`${name} failed: ${r.error instanceof Error ? r.error.message : String(r.error)}`);
  }
  if (problems.length > 0) throw new Error(`stopping the simulated world: ${problems.join('; ')}`);
}
