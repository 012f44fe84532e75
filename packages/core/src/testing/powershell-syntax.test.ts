import test from 'ava';
import { powershellSyntaxErrors } from './powershell-syntax.js';

test('a valid multi-line script has no errors', (t) => {
  const script = [
    '$ErrorActionPreference = "Stop"',
    "$h = @{ 'Metadata-Flavor' = 'Google' }",
    'try {',
    '  $v = [version]"2.0.2107"',
    '  Get-Service | Where-Object { $_.Status -eq "Running" } | ForEach-Object { $_.Name }',
    '} catch {',
    '  throw',
    '}',
    'sc.exe create svc binPath= "C:\\k\\svc.exe --flag" start= auto',
  ].join('\n');
  t.deepEqual(powershellSyntaxErrors(script), []);
});

test('a param block on its own line parses', (t) => {
  t.deepEqual(powershellSyntaxErrors('param(\n  [string]$Name\n)\nWrite-Output $Name\n'), []);
});

test('an unclosed parenthesis is reported with its line number', (t) => {
  const errors = powershellSyntaxErrors('Write-Output 1\nWrite-Output 2\nif ($a -eq 1 { Write-Output 3 }\n');
  t.true(errors.length > 0);
  t.regex(errors[0]!, /^line 3, column \d+: /);
});

test('a missing closing brace is reported', (t) => {
  const errors = powershellSyntaxErrors('function Get-X {\n  return 1\n');
  t.true(errors.length > 0);
  t.regex(errors.join('\n'), /line \d+, column \d+: (missing|cannot parse)/);
});

test('an unterminated string is reported', (t) => {
  t.true(powershellSyntaxErrors("Write-Output 'unterminated\nWrite-Output 2\n").length > 0);
});

test('a script longer than the binding buffer and with non-ASCII text parses as a whole', (t) => {
  const line = "Write-Output 'élan ü 日本'\n";
  const script = line.repeat(3000);
  t.true(script.length > 64 * 1024);
  t.deepEqual(powershellSyntaxErrors(script), []);
  const errors = powershellSyntaxErrors(`${script}if ($x {\n`);
  t.true(errors.length > 0);
  t.regex(errors[0]!, /^line 3001, /);
});

test('a blank script is reported as empty', (t) => {
  t.deepEqual(powershellSyntaxErrors(' \n'), ['line 1, column 1: the script is empty']);
});

test('a leading comment line (a cloudbase-init marker) parses', (t) => {
  t.deepEqual(powershellSyntaxErrors('#ps1_sysnative\nWrite-Output 1\n'), []);
});
