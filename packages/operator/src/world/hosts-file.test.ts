import test from 'ava';
import { parseHostsFile } from './hosts-file.js';

test('defaults: listed by IPv4, cmd shell', (t) => {
  t.deepEqual(parseHostsFile('hosts:\n  - hostname: WIN-A\n', 'f.yaml'), [{ hostname: 'WIN-A' }]);
});

test('every field', (t) => {
  const text = [
    'hosts:',
    '  - hostname: WIN-A',
    '    listAs: dns',
    '    dnsName: win-a.example',
    '    shell: powershell',
    '  - hostname: master-0',
    '    listAs: ipv4',
    '    dnsName: m.example',
  ].join('\n');
  t.deepEqual(parseHostsFile(text, 'f.yaml'), [
    { hostname: 'WIN-A', dnsName: 'win-a.example', listAs: 'dns', defaultShell: 'powershell' },
    { hostname: 'master-0', dnsName: 'm.example', listAs: 'ipv4' },
  ]);
});

for (const [label, text, message] of [
  ['not YAML', 'hosts: [', /f\.yaml: not valid YAML/],
  ['no hosts', 'hosts: []', /hosts: .*>=1|hosts: .*at least/i],
  ['not a list', 'hosts: 3', /hosts: /],
  ['unknown field', 'hosts:\n  - hostname: A\n    ip: 1.2.3.4', /hosts\.0: .*ip/],
  ['unknown top-level field', 'hosts:\n  - hostname: A\nextra: 1', /extra/],
  ['bad listAs', 'hosts:\n  - hostname: A\n    listAs: ipv6', /hosts\.0\.listAs/],
  ['bad shell', 'hosts:\n  - hostname: A\n    shell: bash', /hosts\.0\.shell/],
  ['bad DNS name', 'hosts:\n  - hostname: A\n    dnsName: "a b"', /hosts\.0\.dnsName: must be a DNS name/],
  ['numeric DNS name', 'hosts:\n  - hostname: A\n    dnsName: "127.1"', /must be a DNS name/],
  [
    'dns without a name',
    'hosts:\n  - hostname: A\n    listAs: dns',
    /hosts\[0\]: listAs: dns needs a dnsName/,
  ],
  ['empty hostname', 'hosts:\n  - hostname: ""', /hosts\.0\.hostname/],
  ['control characters', 'hosts:\n  - hostname: "A\\u001b[2J"', /control characters/],
  ['empty file', '', /\(top level\)/],
] as const) {
  test(`refused: ${label}`, (t) => {
    t.throws(() => parseHostsFile(text, 'f.yaml'), { message: message, name: 'HostsFileError' });
  });
}
