import test from 'ava';
import { createSecureContext } from 'node:tls';
import { TLS_PROFILES, tlsProfileOptions } from './tls-profile.js';

test('no profile, an empty one and Intermediate give TLS 1.2 with the Intermediate ciphers', (t) => {
  for (const p of [undefined, {}, { type: 'Intermediate', intermediate: {} }]) {
    const o = tlsProfileOptions(p);
    t.is(o.profile, 'Intermediate');
    t.is(o.minVersion, 'TLSv1.2');
    t.deepEqual(o.ciphers.split(':'), [...TLS_PROFILES.Intermediate.ciphers]);
    t.is(o.problem, undefined);
  }
});

test('Modern is TLS 1.3 with only the three TLS 1.3 suites; Old is TLS 1.0 without what OpenSSL lacks', (t) => {
  const modern = tlsProfileOptions({ type: 'Modern', modern: {} });
  t.is(modern.minVersion, 'TLSv1.3');
  t.is(modern.ciphers, 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256');
  const old = tlsProfileOptions({ type: 'Old', old: {} });
  t.is(old.minVersion, 'TLSv1');
  t.true(old.ciphers.includes('ECDHE-RSA-AES128-SHA:'));
  t.true(old.ciphers.split(':').length >= TLS_PROFILES.Old.ciphers.length - 1);
});

test('Custom takes its version and ciphers; the options build a secure context', (t) => {
  const o = tlsProfileOptions({
    type: 'Custom',
    custom: { minTLSVersion: 'VersionTLS11', ciphers: ['ECDHE-RSA-AES256-GCM-SHA384', 'NOT-A-CIPHER'] },
  });
  t.is(o.profile, 'Custom');
  t.is(o.minVersion, 'TLSv1.1');
  t.is(o.ciphers, 'ECDHE-RSA-AES256-GCM-SHA384');
  t.regex(o.problem ?? '', /unknown to OpenSSL left out: NOT-A-CIPHER/);
  for (const p of ['Old', 'Intermediate', 'Modern'] as const) {
    const opts = tlsProfileOptions({ type: p });
    t.notThrows(() => createSecureContext({ minVersion: opts.minVersion, ciphers: opts.ciphers }), p);
  }
});

test('bad profiles fall back to Intermediate and say why', (t) => {
  const cases: [unknown, RegExp][] = [
    [{ type: 'Paranoid' }, /unknown TLS security profile type "Paranoid"/],
    [{ type: 'Custom' }, /minTLSVersion ""/],
    [
      { type: 'Custom', custom: { minTLSVersion: 'TLS1.2', ciphers: ['AES128-SHA'] } },
      /minTLSVersion "TLS1.2"/,
    ],
    [{ type: 'Custom', custom: { minTLSVersion: 'VersionTLS12', ciphers: ['BOGUS'] } }, /without a cipher/],
    [
      { type: 'Custom', custom: { minTLSVersion: 'VersionTLS13', ciphers: ['ECDHE-RSA-AES128-GCM-SHA256'] } },
      /cannot serve VersionTLS13/,
    ],
  ];
  for (const [p, why] of cases) {
    const o = tlsProfileOptions(p);
    t.is(o.profile, 'Intermediate', JSON.stringify(p));
    t.is(o.minVersion, 'TLSv1.2');
    t.regex(o.problem ?? '', why);
    t.regex(o.problem ?? '', /using Intermediate/);
  }
});
