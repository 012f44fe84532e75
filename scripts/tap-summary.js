// Sums the `# pass N` / `# fail N` lines of every TAP file in a directory and prints the one line CI
// reads: `N passed, N failed` (last). Extra failed steps (format, lint, type-check) count as failures.
// Before it, one line for the host module's Pester suite (pester.tap): its counts, or why it was skipped;
// and one for the module's answers in that run checked against the operator's schemas (host-answers.tap).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, extraFailures = '0'] = process.argv.slice(2);
const all = { pass: 0, fail: Number(extraFailures) };
const pester = { pass: 0, fail: 0, skipped: '' };
const answers = { pass: 0, fail: 0 };
for (const file of readdirSync(dir).filter((f) => f.endsWith('.tap'))) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    const skipped = /^# (PowerShell tests skipped: .*)$/.exec(line.trim());
    if (skipped) pester.skipped = skipped[1] ?? '';
    const m = /^# (pass|fail) (\d+)$/.exec(line.trim());
    if (!m) continue;
    const key = m[1] === 'pass' ? 'pass' : 'fail';
    all[key] += Number(m[2]);
    if (file === 'pester.tap') pester[key] += Number(m[2]);
    if (file === 'host-answers.tap') answers[key] += Number(m[2]);
  }
}
if (existsSync(join(dir, 'pester.tap'))) {
  console.log(
    pester.skipped || `PowerShell (Pester, WmcoHost.psm1): ${pester.pass} passed, ${pester.fail} failed`,
  );
}
if (existsSync(join(dir, 'host-answers.tap'))) {
  console.log(
    `its answers parsed with the operator's schemas: ${answers.pass} passed, ${answers.fail} failed`,
  );
}
console.log(`${all.pass} passed, ${all.fail} failed`);
