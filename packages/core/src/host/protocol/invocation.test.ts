import test from 'ava';
import { modulePathFor } from './host-paths.js';
import {
  POWERSHELL_PREFIX,
  decodePowerShellCommand,
  encodePowerShellCommand,
  hostInvocationScript,
  parseHostInvocation,
} from './invocation.js';

const sha256 = '0123456789abcdef'.repeat(4);
const modulePath = modulePathFor(sha256);
const module = { modulePath, sha256 };

test('the command line is powershell.exe with an UTF-16LE base64 script and nothing else', (t) => {
  const line = encodePowerShellCommand(hostInvocationScript(module));
  t.true(
    line.startsWith('powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand '),
  );
  t.regex(line.slice(POWERSHELL_PREFIX.length), /^[A-Za-z0-9+/]+=*$/);
  const script = decodePowerShellCommand(line)!;
  t.is(script, hostInvocationScript(module));
  t.deepEqual(parseHostInvocation(script), module);
  t.true(script.includes(`if ($hash -ne '${sha256}')`), 'the full hash is checked on the host');
});

test('the decoder accepts only the exact form', (t) => {
  t.is(decodePowerShellCommand('hostname'), undefined);
  t.is(decodePowerShellCommand(`${POWERSHELL_PREFIX}not base64!`), undefined);
  t.is(parseHostInvocation('Get-Help'), undefined);
  t.is(parseHostInvocation(`${hostInvocationScript(module)}; Remove-Item C:\\`), undefined);
});

test('a module path outside the wmco folder is refused', (t) => {
  t.throws(() => hostInvocationScript({ modulePath: "C:\\x'; evil; '.psm1", sha256 }), {
    message: /not under/,
  });
  t.throws(() => hostInvocationScript({ modulePath, sha256: 'f'.repeat(64) }), { message: /does not name/ });
  t.throws(() => hostInvocationScript({ modulePath, sha256: `${sha256}'; evil` }), {
    message: /does not name/,
  });
});
