import test from 'ava';
import { modulePathFor } from './host-paths.js';
import {
  POWERSHELL_PREFIX,
  decodePowerShellCommand,
  encodePowerShellCommand,
  hostInvocationScript,
  parseHostInvocation,
} from './invocation.js';

const modulePath = modulePathFor('0123456789abcdef'.repeat(4));

test('the command line is powershell.exe with an UTF-16LE base64 script and nothing else', (t) => {
  const line = encodePowerShellCommand(hostInvocationScript(modulePath));
  t.true(
    line.startsWith('powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand '),
  );
  t.regex(line.slice(POWERSHELL_PREFIX.length), /^[A-Za-z0-9+/]+=*$/);
  const script = decodePowerShellCommand(line)!;
  t.is(script, hostInvocationScript(modulePath));
  t.deepEqual(parseHostInvocation(script), { modulePath });
});

test('the decoder accepts only the exact form', (t) => {
  t.is(decodePowerShellCommand('hostname'), undefined);
  t.is(decodePowerShellCommand(`${POWERSHELL_PREFIX}not base64!`), undefined);
  t.is(parseHostInvocation('Get-Help'), undefined);
  t.is(parseHostInvocation(`${hostInvocationScript(modulePath)}; Remove-Item C:\\`), undefined);
});

test('a module path outside the wmco folder is refused', (t) => {
  t.throws(() => hostInvocationScript("C:\\x'; evil; '.psm1"), { message: /not under/ });
});
