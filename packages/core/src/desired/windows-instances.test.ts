import test from 'ava';
import type { NodeRef } from './node-ref.js';
import { systemIpv4Resolver } from './system-ipv4-resolver.js';
import {
  nodeUsername,
  parseInstanceUsername,
  parseWindowsInstances,
  type Ipv4Resolver,
  type WindowsInstanceResult,
} from './windows-instances.js';

// A resolver that behaves like the test machine's: localhost → 127.0.0.1, anything else fails.
const resolver: Ipv4Resolver = (name) =>
  name === 'localhost'
    ? Promise.resolve(['127.0.0.1'])
    : Promise.reject(new Error(`lookup ${name}: no such host`));

const node = (name: string, ip: string): NodeRef => ({
  name,
  addresses: [{ type: 'InternalIP', address: ip }],
});

const ok = (r: WindowsInstanceResult[]) =>
  r.map((e) => (e.ok ? { ...e.instance, node: e.instance.node?.name } : { error: e.error }));

// Upstream (wiparser_test.go) fails the whole map on any bad entry. We deliberately return one result per
// key instead: the bad key gets an error naming it, and the good keys still parse.
for (const [label, data, reason] of [
  ['not a username value', { localhost: 'notusername=core' }, 'must start with "username="'],
  ['unresolvable DNS name', { notlocalhost: 'username=core' }, 'cannot resolve'],
  ['invalid value', { invalid: 'invalid' }, 'no "="'],
  ['IPv6 rejected', { '::1': 'username=core' }, 'IPv6'],
  ['bare username (upstream panics)', { localhost: 'username' }, 'no "="'],
] as const) {
  test(`windows-instances: ${label} → a per-entry error naming the key`, async (t) => {
    const [r, ...rest] = await parseWindowsInstances(data, [], resolver);
    t.is(rest.length, 0);
    t.false(r!.ok);
    const key = Object.keys(data)[0]!;
    t.true(!r!.ok && r!.error.includes(`"${key}"`) && r!.error.includes(reason), !r!.ok ? r!.error : '');
  });
}

test('windows-instances: localhost resolves to 127.0.0.1 with no node', async (t) => {
  t.deepEqual(ok(await parseWindowsInstances({ localhost: 'username=core' }, [], resolver)), [
    { address: 'localhost', ipv4Address: '127.0.0.1', username: 'core', node: undefined },
  ]);
});

test('windows-instances: the system resolver resolves localhost too', async (t) => {
  const [r] = await parseWindowsInstances({ localhost: 'username=core' }, [], systemIpv4Resolver);
  t.true(r!.ok && r!.instance.ipv4Address === '127.0.0.1');
});

test('windows-instances: an IPv4 key is its own address', async (t) => {
  t.deepEqual(ok(await parseWindowsInstances({ '127.0.0.1': 'username=core' }, [], resolver)), [
    { address: '127.0.0.1', ipv4Address: '127.0.0.1', username: 'core', node: undefined },
  ]);
});

test('windows-instances: two entries, with and without a non-matching node', async (t) => {
  const data = { localhost: 'username=core', '127.0.0.1': 'username=Admin' };
  const expected = [
    { address: '127.0.0.1', ipv4Address: '127.0.0.1', username: 'Admin', node: undefined },
    { address: 'localhost', ipv4Address: '127.0.0.1', username: 'core', node: undefined },
  ];
  t.deepEqual(ok(await parseWindowsInstances(data, [], resolver)), expected);
  t.deepEqual(ok(await parseWindowsInstances(data, [node('wrong-node', '111.1.1.1')], resolver)), expected);
});

test('windows-instances: nodes are associated by IP and by resolved DNS name', async (t) => {
  const data = { localhost: 'username=core', '127.0.0.2': 'username=Admin' };
  const nodes = [node('ip-node', '127.0.0.2'), node('dns-node', '127.0.0.1')];
  t.deepEqual(ok(await parseWindowsInstances(data, nodes, resolver)), [
    { address: '127.0.0.2', ipv4Address: '127.0.0.2', username: 'Admin', node: 'ip-node' },
    { address: 'localhost', ipv4Address: '127.0.0.1', username: 'core', node: 'dns-node' },
  ]);
});

test('windows-instances: nodes must be given', async (t) => {
  await t.throwsAsync(parseWindowsInstances({}, undefined, resolver), { message: /nodes cannot be/ });
});

test('windows-instances: one bad entry does not block the good ones (deliberate difference)', async (t) => {
  const r = await parseWindowsInstances(
    { '10.0.0.1': 'username=core', '::1': 'username=core' },
    [],
    resolver,
  );
  t.deepEqual(
    r.map((e) => [e.key, e.ok]),
    [
      ['10.0.0.1', true],
      ['::1', false],
    ],
  );
});

test('windows-instances: the value is split on the first "="', (t) => {
  t.is(parseInstanceUsername('username=core'), 'core');
  // upstream yields "a=b"; it reaches the strict name check, which rejects "=".
  t.throws(() => parseInstanceUsername('username=a=b'), { message: /username "a=b"/ });
});

for (const bad of ['co re', "o'neil", 'a"b', 'x;rm', 'a$b', 'a`b', 'a|b', 'a&b', '(a)', '', 'a\\b', 'a\tb']) {
  test(`windows-instances: username ${JSON.stringify(bad)} is rejected`, (t) => {
    t.throws(() => parseInstanceUsername(`username=${bad}`), { message: /not a valid Windows account name/ });
  });
}

for (const bad of ['host name', "h'x", 'a;b', '$(x)', 'a`b', '-host', 'a..b', '10.0.0.1 ', '10.0.0.1\n']) {
  test(`windows-instances: address ${JSON.stringify(bad)} is rejected`, async (t) => {
    const [r] = await parseWindowsInstances({ [bad]: 'username=core' }, [], resolver);
    t.true(!r!.ok && r!.error.includes('neither an IPv4 address nor a valid DNS name'));
  });
}

// GetNodeUsername vectors, node `test-node` at 111.1.1.1.
const testNode = node('test-node', '111.1.1.1');
for (const [label, data, nodeArg, expected] of [
  ['node missing', { '111.1.1.1': 'username=core' }, undefined, /node cannot be/],
  ['empty data', {}, testNode, /no valid windows-instances entry for node test-node/],
  ['value without username=', { localhost: 'core' }, testNode, /no valid/],
  ['wrong key in value', { localhost: 'notusername=core' }, testNode, /no valid/],
  ['node not in data', { localhost: 'username=core' }, testNode, /no valid/],
  ['matching IP', { '111.1.1.1': 'username=core' }, testNode, 'core'],
  ['two entries', { localhost: 'username=core', '111.1.1.1': 'username=Admin' }, testNode, 'Admin'],
] as const) {
  test(`nodeUsername: ${label}`, async (t) => {
    const run = nodeUsername(data, nodeArg, resolver);
    if (typeof expected === 'string') t.is(await run, expected);
    else await t.throwsAsync(run, { message: expected });
  });
}
