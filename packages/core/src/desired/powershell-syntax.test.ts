import test from 'ava';
import { powershellSyntaxErrors } from './powershell-syntax.test-helper.js';

test('the PowerShell checker accepts valid PowerShell and reports broken PowerShell', (t) => {
  t.deepEqual(powershellSyntaxErrors("$a = 'x'; if ($a) { Write-Output $a }"), []);
  t.true(powershellSyntaxErrors('if ($a) { Write-Output "x" ').length > 0);
  t.true(powershellSyntaxErrors("$a = 'unterminated").length > 0);
});
