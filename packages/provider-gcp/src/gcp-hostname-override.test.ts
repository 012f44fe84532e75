import test from 'ava';
import { powershellSyntaxErrors } from '@wmco/core/testing';
import { gcpHostnameOverride } from './gcp-hostname-override.js';
import { gcpNodeName } from './gcp-node-name.js';
import { gcpUserDataFormat } from './gcp-user-data-format.js';

const label = (n: number, c = 'a'): string => c.repeat(n);

const cases: readonly [string, string, string][] = [
  ['a short FQDN as is', 'win-abc.c.project.internal', 'win-abc.c.project.internal'],
  ['exactly 63 characters as is', label(63), label(63)],
  ['63 characters with dots as is', `${label(30)}.${label(32)}`, `${label(30)}.${label(32)}`],
  ['64+ with a dot at index 63: the 63-character prefix', `${label(63)}.c.project.internal`, label(63)],
  ['64+ with an early dot: the first label', `${label(10)}.${label(60)}`, label(10)],
  ['64+ with the first dot at index 64: the first 63 characters', `${label(64, 'b')}.x`, label(63, 'b')],
  ['64+ without a dot: the first 63 characters', label(80, 'c'), label(63, 'c')],
  ['64+ starting with a dot (index 0): the first 63 characters', `.${label(70)}`, `.${label(62)}`],
  ['surrounding whitespace trimmed', '  win-abc.internal\r\n', 'win-abc.internal'],
];

for (const [what, input, expected] of cases) {
  test(`node name: ${what}`, (t) => {
    t.is(gcpNodeName(input), expected);
    t.true(gcpNodeName(input).length <= 63);
  });
}

test('the command runs the script it ships, at C:\\Temp\\gcp-get-hostname.ps1 (upstream vector)', (t) => {
  t.is(gcpHostnameOverride.command, 'C:\\Temp\\gcp-get-hostname.ps1');
  t.deepEqual(
    gcpHostnameOverride.files.map((f) => f.path),
    ['C:\\Temp\\gcp-get-hostname.ps1'],
  );
});

test('the script asks the metadata server with the Metadata-Flavor header and applies the same rule', (t) => {
  const script = gcpHostnameOverride.files[0]!.content;
  t.deepEqual(powershellSyntaxErrors(script), []);
  t.true(script.includes("@{ 'Metadata-Flavor' = 'Google' }"));
  t.true(script.includes('http://metadata.google.internal/computeMetadata/v1/instance/hostname'));
  // The three branches of gcpNodeName, in the same order and with the same bounds.
  const rule = [
    'if ($hostname.Length -le 63) {',
    "$firstDot = $hostname.IndexOf('.')",
    'if ($firstDot -gt 0 -and $firstDot -le 63) {',
    'return $hostname.Substring(0, $firstDot)',
    'return $hostname.Substring(0, 63)',
  ];
  const positions = rule.map((line) => script.indexOf(line));
  t.false(positions.includes(-1), `missing: ${rule.filter((_, i) => positions[i] === -1).join(' | ')}`);
  t.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
  );
});

test('user data is raw on GCP (processTags vector)', (t) => {
  t.is(gcpUserDataFormat.wrap('gcp-user-data'), 'gcp-user-data');
});
