import test from 'ava';
import { findPwsh } from './find-pwsh.js';
import { formatFindings, runPs51Gate, type GateReport } from './ps51-gate.js';
import { BROKEN_SCRIPTS, CLEAN_SCRIPT } from './ps51-gate-corpus.test-helper.js';

// One pwsh start checks the whole corpus; every test reads the same report.
const pwsh = findPwsh(process.env);
const report: Promise<GateReport> | undefined =
  'missing' in pwsh ? undefined : runPs51Gate(pwsh.path, [...BROKEN_SCRIPTS, CLEAN_SCRIPT]);
report?.catch(() => undefined);

const gateTest =
  'missing' in pwsh
    ? (title: string) => test.skip(`${title} (skipped: ${pwsh.missing})`, () => undefined)
    : undefined;

for (const script of BROKEN_SCRIPTS) {
  const title = `${script.name} breaks ${script.rule}: the gate reports it at line ${script.line}`;
  if (gateTest || !report) {
    gateTest?.(title);
    continue;
  }
  test(title, async (t) => {
    const { findings } = await report;
    const mine = findings.filter((f) => f.file === script.name);
    t.true(
      mine.some((f) => f.rule === script.rule && f.line === script.line),
      `expected ${script.rule} at ${script.name}:${script.line}, got:\n${formatFindings(mine)}`,
    );
    t.true(mine.every((f) => f.line >= 1 && f.column >= 1 && f.message.length > 0));
  });
}

const cleanTitle = 'the same constructs written for 5.1 pass the gate (no false positives)';
if (gateTest || !report) gateTest?.(cleanTitle);
else
  test(cleanTitle, async (t) => {
    const { findings } = await report;
    t.is(formatFindings(findings.filter((f) => f.file === CLEAN_SCRIPT.name)), '');
  });

const inventoryTitle = 'the report lists the 5.1 commands, parameters and types each script uses';
if (gateTest || !report) gateTest?.(inventoryTitle);
else
  test(inventoryTitle, async (t) => {
    const { inventory } = await report;
    const clean = inventory[CLEAN_SCRIPT.name];
    t.deepEqual(clean?.commands['Set-Content'], ['Encoding', 'LiteralPath', 'Value']);
    t.deepEqual(clean?.commands['Get-Item'], ['ErrorAction', 'LiteralPath', 'WarningAction']);
    t.true(clean?.types.includes('System.Text.UTF8Encoding'));
    t.true(clean?.types.includes('System.IO.Path'));
  });
