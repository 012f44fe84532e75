import test from 'ava';
import { readableStderr } from './cli-xml.js';

// The shape powershell -EncodedCommand writes when stderr is not a console (PowerShell/PowerShell #5912).
const SAMPLE =
  '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">' +
  '<S S="Error">boom &lt;1&gt; &amp; C:\\k_x000D__x000A_</S><S S="Error">At line:1 char:1_x000D__x000A_</S>' +
  '<S S="Error">+ throw \'boom\'_x000D__x000A_</S></Objs>';

test('CLIXML on stderr reads as the console lines it stands for', (t) => {
  t.is(readableStderr(SAMPLE), "boom <1> & C:\\k\nAt line:1 char:1\n+ throw 'boom'");
});

test('plain stderr is left as it is', (t) => {
  t.is(readableStderr('sshd: no shell\r\n'), 'sshd: no shell\r\n');
});
