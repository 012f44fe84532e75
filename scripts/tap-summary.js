// Sums the `# pass N` / `# fail N` lines of every TAP file in a directory and prints the one line CI
// reads: `N passed, N failed`. Extra failed steps (format, lint, type-check) count as failures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, extraFailures = '0'] = process.argv.slice(2);
let passed = 0;
let failed = Number(extraFailures);
const lines = readdirSync(dir)
  .filter((f) => f.endsWith('.tap'))
  .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'));
for (const line of lines) {
  const m = /^# (pass|fail) (\d+)$/.exec(line.trim());
  if (m?.[1] === 'pass') passed += Number(m[2]);
  if (m?.[1] === 'fail') failed += Number(m[2]);
}
console.log(`${passed} passed, ${failed} failed`);
