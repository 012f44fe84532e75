import test from 'ava';
import { kubeletNodeName, nodeNameProblem } from './node-name.js';

test('the kubelet name is the reported name trimmed and lower-cased, as the kubelet registers it', (t) => {
  t.deepEqual(kubeletNodeName('WIN-BYOH-01'), { ok: true, name: 'win-byoh-01' });
  t.deepEqual(kubeletNodeName('  WIN-A.Example.COM \r\n'), { ok: true, name: 'win-a.example.com' });
});

test('names that are not lower-case RFC 1123 subdomains of printable ASCII are refused with a reason', (t) => {
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['   ', /empty/],
    ['win_a', /RFC 1123/],
    ['-win', /RFC 1123/],
    ['win..a', /RFC 1123/],
    ['win-a.', /RFC 1123/],
    ['win\u212a', /not ASCII/], // the Kelvin sign lower-cases to an ASCII k: refused before lower-casing
    ['wın-a', /not ASCII/],
    ['win\u0000a', /not ASCII/],
    ['a'.repeat(254), /longer than 253/],
  ];
  for (const [raw, reason] of bad) {
    const r = kubeletNodeName(raw);
    t.false(r.ok, JSON.stringify(raw));
    if (!r.ok) t.regex(r.reason, reason, JSON.stringify(raw));
  }
});

test('names compare exactly after the normalisation: upper case is no node name', (t) => {
  t.is(nodeNameProblem('win-a'), undefined);
  t.regex(nodeNameProblem('WIN-A') ?? '', /lower-case RFC 1123/);
  t.regex(nodeNameProblem(' win-a') ?? '', /RFC 1123/);
});
