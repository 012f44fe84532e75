import test from 'ava';
import { parseSshPortOverrides } from './ssh-port-overrides.js';

test('parses address=port pairs and ignores empty parts', (t) => {
  const m = parseSshPortOverrides(' 127.0.0.5=2222,,10.0.0.6 = 22 ');
  t.deepEqual(
    [...m],
    [
      ['127.0.0.5', 2222],
      ['10.0.0.6', 22],
    ],
  );
  t.is(parseSshPortOverrides(undefined).size, 0);
});

test('a malformed entry is an error naming it', (t) => {
  for (const bad of ['127.0.0.5', '=22', '127.0.0.5=0', '127.0.0.5=70000', 'h=abc']) {
    const err = t.throws(() => parseSshPortOverrides(`10.0.0.1=22,${bad}`));
    t.true(err.message.includes(`"${bad}"`), err.message);
  }
});
