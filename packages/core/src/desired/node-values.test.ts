import test from 'ava';
import { checkNodeValue, isCanonicalIpv4, isIpv4Cidr, typedNodeVariables } from './node-values.js';

test('IPv4: canonical dotted quads only', (t) => {
  for (const ok of ['10.0.0.1', '0.0.0.0', '255.255.255.255', '192.168.1.20'])
    t.true(isCanonicalIpv4(ok), ok);
  for (const bad of [
    '010.0.0.1',
    '2130706433',
    '0x7f.0.0.1',
    '127.1',
    '256.0.0.1',
    '1.2.3.4 ',
    '1.2.3.4;x',
    '',
  ])
    t.false(isCanonicalIpv4(bad), bad);
});

test('IPv4 CIDR: canonical address, prefix 0-32, network address', (t) => {
  for (const ok of ['10.132.2.0/24', '10.128.0.0/14', '0.0.0.0/0', '10.0.0.7/32']) t.true(isIpv4Cidr(ok), ok);
  for (const bad of [
    '10.132.2.1/24',
    '10.132.2.0/33',
    '10.132.2.0',
    '10.132.2.0/024',
    '10.132.2.0/24/1',
    'x/24',
  ])
    t.false(isIpv4Cidr(bad), bad);
});

test('each variable is checked for its own type', (t) => {
  t.notThrows(() => checkNodeValue('NODE_SUBNET', '10.132.2.0/24'));
  t.notThrows(() => checkNodeValue('NODE_NAME', 'win-a.example.com'));
  t.notThrows(() => checkNodeValue('NODE_IP', '10.0.0.5'));
  t.notThrows(() => checkNodeValue('HOSTNAME_OVERRIDE', 'WIN-BYOH-01.corp.example'));
  t.notThrows(() => checkNodeValue('KUBE_CONFIG_PATH', 'C:\\k\\kubeconfig'));
  const cases: [string, string, RegExp][] = [
    ['NODE_SUBNET', "10.0.0.0/24'; Remove-Item C:\\ -Recurse; '", /not an IPv4 CIDR/],
    ['NODE_SUBNET', '$(Invoke-Expression x)', /not an IPv4 CIDR/],
    ['NODE_NAME', 'Win-A', /lower-case RFC 1123/],
    ['NODE_NAME', 'a b', /lower-case RFC 1123/],
    ['NODE_NAME', '', /lower-case RFC 1123/],
    ['NODE_IP', '10.0.0.5 --v=10', /dotted-quad IPv4/],
    ['HOSTNAME_OVERRIDE', 'wïn', /RFC 1123 host name/],
    ['VERBOSITY', '0;calc', /one word/],
  ];
  for (const [name, value, message] of cases) {
    const err = t.throws(() => checkNodeValue(name, value), { name: 'NodeValueError' }, `${name}=${value}`);
    t.regex(err.message, message);
    t.true(err.message.startsWith(`refusing ${name} = "`));
  }
});

test('a refused value is shown escaped and shortened, never raw', (t) => {
  const err = t.throws(() => checkNodeValue('NODE_SUBNET', `\u001b[31m${'x'.repeat(200)}\n`));
  t.false(/\p{Cc}/u.test(err.message));
  t.true(err.message.includes('\\u001b'));
  t.true(err.message.length < 200);
});

test('node variables are resolved from the Node and typed', (t) => {
  const node = { metadata: { name: 'win-a', annotations: { s: 'not-a-cidr' } } };
  t.deepEqual(typedNodeVariables([{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }], node), {
    NODE_NAME: 'win-a',
  });
  t.throws(() => typedNodeVariables([{ name: 'NODE_SUBNET', jsonPath: '{.metadata.annotations.s}' }], node), {
    message: /NODE_SUBNET/,
  });
});
