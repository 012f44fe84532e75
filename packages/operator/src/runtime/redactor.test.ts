import test from 'ava';
import { createLogger } from './logger.js';
import { Redactor } from './redactor.js';

const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACBJ7q9m1vTq0aVnUq1Zr9Qm8k0l7oQbq0Yy2GzXv1c2zQAAAJgAAAAAAAAA
-----END OPENSSH PRIVATE KEY-----`;

test('scrubs sensitive keys at any depth, PEM keys and bearer tokens in text', (t) => {
  const r = new Redactor();
  const out = r.scrub({
    msg: `key is ${KEY} and header Bearer abc.def-123`,
    nested: { data: { 'private-key.pem': 'x', token: 'y', userData: 'z', ok: 'visible' } },
    list: [{ password: 'p' }],
  });
  const text = JSON.stringify(out);
  t.false(text.includes('PRIVATE KEY-----\nb3Bl'));
  t.false(text.includes('abc.def-123'));
  t.regex(text, /visible/);
  t.deepEqual((out as { nested: { data: Record<string, string> } }).nested.data, {
    'private-key.pem': '[REDACTED]',
    token: '[REDACTED]',
    userData: '[REDACTED]',
    ok: 'visible',
  });
});

test('registered secrets vanish wherever they appear, line by line too', (t) => {
  const r = new Redactor();
  r.register('abcdef.0123456789abcdef');
  r.register(KEY);
  t.is(r.scrubText('token abcdef.0123456789abcdef used'), 'token [REDACTED] used');
  const oneLine = KEY.split('\n')[1]!;
  t.false(r.scrubText(`partial ${oneLine}`).includes(oneLine));
  r.register('short');
  t.is(r.scrubText('short'), 'short', 'too short to be a secret worth matching');
});

test('the logger never writes a secret, in objects, messages or errors', (t) => {
  const lines: string[] = [];
  const redactor = new Redactor();
  redactor.register('s3cr3t-bootstrap-token');
  const log = createLogger({ level: 'debug', redactor, destination: { write: (l) => lines.push(l) } });
  log.info(
    { secret: { data: { token: 'abc' } }, user: 'core', err: new Error(`boom ${KEY}`) },
    'joining with s3cr3t-bootstrap-token',
  );
  log.child({ host: '10.0.0.5' }).warn({ header: 'Bearer zzzzzzzz' }, 'retry');
  const all = lines.join('');
  t.false(all.includes('s3cr3t-bootstrap-token'));
  t.false(all.includes('b3BlbnNzaC1rZXktdjEAAAAABG5v'));
  t.false(all.includes('zzzzzzzz'));
  t.regex(all, /"user":"core"/);
  t.regex(all, /"host":"10.0.0.5"/);
  t.is(lines.length, 2);
});

test('proxy credentials vanish from logs, events and statuses in every form', (t) => {
  const r = new Redactor();
  r.registerProxy('alice:hunter2@proxy:3128');
  r.registerProxy('http://bob:s3cr%40tpass@proxy:3128');
  for (const text of [
    'connect via alice:hunter2@proxy:3128 failed',
    'HTTPS_PROXY=alice:hunter2@proxy:3128',
    'proxy http://bob:s3cr%40tpass@proxy:3128 refused',
    'the password s3cr@tpass was rejected',
    'an unregistered http://carol:pw@x@[fd00::1]:3128 too',
  ]) {
    const out = r.scrubText(text);
    t.false(/hunter2|s3cr|carol|:pw/.test(out), out);
  }
  t.is(r.scrubText('see http://proxy:3128/a@b'), 'see http://proxy:3128/a@b', 'a path @ is no userinfo');
});

test('a long hostile text is scrubbed in linear time', (t) => {
  const r = new Redactor();
  // Without bounds, each of these starts would scan the rest of the text (quadratic).
  const hostile = 'a-'.repeat(200_000) + 'x://'.repeat(100_000) + 'http://u:secretpass@proxy';
  const out = r.scrubText(hostile);
  t.false(out.includes('secretpass'));
  t.true(out.endsWith('http://[REDACTED]@proxy'));
});
