import test from 'ava';
import {
  isProxyUrlVariable,
  proxyCredentials,
  redactProxyCredentials,
  stripProxyCredentials,
} from './proxy-credentials.js';

const CASES: readonly [string, string, string][] = [
  // value, redacted, stripped
  ['http://user:pass@proxy:3128', 'http://***@proxy:3128', 'http://proxy:3128'],
  ['user:pass@proxy:3128', '***@proxy:3128', 'proxy:3128'],
  ['http://user:p%40ss@proxy.example:3128/', 'http://***@proxy.example:3128/', 'http://proxy.example:3128/'],
  ['http://user:p@ss@proxy:3128', 'http://***@proxy:3128', 'http://proxy:3128'],
  ['user:p@ss@proxy:3128', '***@proxy:3128', 'proxy:3128'],
  ['http://user:pass@[fd00::1]:3128', 'http://***@[fd00::1]:3128', 'http://[fd00::1]:3128'],
  ['[fd00::1]:3128', '[fd00::1]:3128', '[fd00::1]:3128'],
  ['socks5h://alice@proxy:1080', 'socks5h://***@proxy:1080', 'socks5h://proxy:1080'],
  ['http://proxy:3128/path@x', 'http://proxy:3128/path@x', 'http://proxy:3128/path@x'],
  ['proxy:3128', 'proxy:3128', 'proxy:3128'],
  [' http://u:secret-pw@proxy:3128 ', 'http://***@proxy:3128', 'http://proxy:3128'],
];

test('userinfo is redacted or stripped in every form a proxy value takes', (t) => {
  for (const [value, redacted, stripped] of CASES) {
    t.is(redactProxyCredentials(value), redacted, value);
    t.is(stripProxyCredentials(value), stripped, value);
  }
});

test('the secret forms of a proxy value: as written, decoded, and the password alone', (t) => {
  t.deepEqual(proxyCredentials('http://user:p%40ss@proxy:3128'), [
    'user:p%40ss',
    'user:p@ss',
    'p%40ss',
    'p@ss',
  ]);
  t.deepEqual(proxyCredentials('alice:s3cret@proxy:3128'), ['alice:s3cret', 's3cret']);
  t.deepEqual(proxyCredentials('http://proxy:3128'), []);
  t.deepEqual(proxyCredentials('http://u:%zz@proxy'), ['u:%zz', '%zz'], 'a bad escape is kept as written');
});

test('proxy URL variables are told from NO_PROXY and others', (t) => {
  for (const n of ['HTTP_PROXY', 'https_proxy', 'ALL_PROXY', 'ftp_proxy']) t.true(isProxyUrlVariable(n), n);
  for (const n of ['NO_PROXY', 'no_proxy', 'PROXY', 'NODE_NAME']) t.false(isProxyUrlVariable(n), n);
});
