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

test('scenario fields: literal key, both listings, faults, node subnet, CSR attacks', (t) => {
  const text = [
    'hosts:',
    '  - hostname: WIN-K',
    "    key: '127.1'",
    '  - hostname: WIN-D',
    '    dnsName: d.example',
    '    listAs: [ipv4, dns]',
    '    faults: [endlessOutput]',
    '  - hostname: WIN-S',
    '    nodeSubnet: "10.0.0.0/24; calc"',
    '    hostileCsrs: [servingExtraSans, afterRemoval]',
    '  - hostname: WIN-C',
    '    hostileCsrs: [secondClient]',
  ].join('\n');
  t.deepEqual(parseHostsFile(text, 'f.yaml'), [
    { hostname: 'WIN-K', scenario: { keys: ['127.1'] } },
    {
      hostname: 'WIN-D',
      dnsName: 'd.example',
      listAs: 'ipv4',
      scenario: { listAs: ['ipv4', 'dns'], faults: ['endlessOutput'] },
    },
    {
      hostname: 'WIN-S',
      scenario: { nodeSubnet: '10.0.0.0/24; calc', hostileCsrs: ['servingExtraSans', 'afterRemoval'] },
    },
    // A client-CSR attack needs the registration live for a moment: the kubelet registers 3 s late.
    { hostname: 'WIN-C', scenario: { hostileCsrs: ['secondClient'] }, kubelet: { registerDelayMs: 3000 } },
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
  ['unknown fault', 'hosts:\n  - hostname: A\n    faults: [crash]', /hosts\.0\.faults\.0/],
  ['unknown attack', 'hosts:\n  - hostname: A\n    hostileCsrs: [steal]', /hosts\.0\.hostileCsrs\.0/],
  [
    'attack twice',
    'hosts:\n  - hostname: A\n    hostileCsrs: [secondClient, secondClient]',
    /lists a value twice/,
  ],
  ['empty attack list', 'hosts:\n  - hostname: A\n    hostileCsrs: []', /hosts\.0\.hostileCsrs/],
  ['key with listAs', 'hosts:\n  - hostname: A\n    key: a.b\n    listAs: ipv4', /key and listAs cannot/],
  [
    'key with a space',
    'hosts:\n  - hostname: A\n    key: "1 2"',
    /hosts\.0\.key: must not contain white space/,
  ],
  [
    'one key twice',
    'hosts:\n  - hostname: A\n    key: k.x\n  - hostname: B\n    key: k.x',
    /hosts\[1\]: key k\.x/,
  ],
  ['dns in a list without a name', 'hosts:\n  - hostname: A\n    listAs: [ipv4, dns]', /listAs: dns needs/],
  [
    'subnet with control characters',
    'hosts:\n  - hostname: A\n    nodeSubnet: "a\\u0007"',
    /control characters/,
  ],
] as const) {
  test(`refused: ${label}`, (t) => {
    t.throws(() => parseHostsFile(text, 'f.yaml'), { message: message, name: 'HostsFileError' });
  });
}
