import test from 'ava';
import { printableText } from './printable-text.js';

test('ANSI sequences and control characters are removed; line breaks become spaces', (t) => {
  t.is(printableText('\u001b[31mred\u001b[0m text'), 'red text');
  t.is(printableText('a\r\nb\tc'), 'a b c');
  t.is(printableText('title\u001b]0;pwned\u0007 done'), 'title done');
  t.is(printableText('bell\u0007 nul\u0000 del\u007f c1\u009b'), 'bell nul del c1');
  t.is(printableText('bidi \u202eevil\u202c'), 'bidi evil');
  t.is(printableText('ünïcode stays'), 'ünïcode stays');
});

test('long text is cut with an ellipsis', (t) => {
  const out = printableText('x'.repeat(5000), 100);
  t.is(out.length, 100);
  t.true(out.endsWith('…'));
});
