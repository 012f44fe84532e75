import test from 'ava';
import {
  STRICT_ADDRESS_POLICY,
  instanceAddressProblem,
  nonCanonicalNumericProblem,
  type InstanceAddressPolicy,
} from './instance-address.js';
import { parseWindowsInstances, type Ipv4Resolver } from './windows-instances.js';

// Resolves every name to 127.0.0.1: if a numeric key reached the resolver it would parse.
const everything: Ipv4Resolver = () => Promise.resolve(['127.0.0.1']);
const names: Record<string, string> = {
  'win.example': '10.1.0.5',
  'lo.example': '127.0.0.5',
  'meta.example': '169.254.169.254',
};
const resolver: Ipv4Resolver = (n) =>
  names[n] ? Promise.resolve([names[n]]) : Promise.reject(new Error(`${n}: NXDOMAIN`));

for (const key of [
  '010.0.0.1',
  '2130706433',
  '0x7f.1',
  '127.1',
  '0177.0.0.1',
  '0x7f000001',
  '1.2.3.4.5',
  '10.0.1',
]) {
  test(`windows-instances: numeric key ${key} is refused before any lookup`, async (t) => {
    t.truthy(nonCanonicalNumericProblem(key));
    const [r] = await parseWindowsInstances({ [key]: 'username=core' }, [], everything);
    t.false(r!.ok);
    t.regex(!r!.ok ? r!.error : '', /non-canonical form/);
  });
}

for (const key of ['10.0.0.1', '0.0.0.0', 'win.example', 'host-1.example.', 'a1.b2', '1a.example', 'node7']) {
  test(`windows-instances: ${key} is not a non-canonical number`, (t) => {
    t.is(nonCanonicalNumericProblem(key), undefined);
  });
}

for (const [ip, what] of [
  ['127.0.0.1', /loopback/],
  ['127.200.3.4', /loopback/],
  ['169.254.169.254', /link-local/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['224.0.0.251', /multicast/],
  ['239.1.1.1', /multicast/],
  ['255.255.255.255', /broadcast/],
] as const) {
  test(`address policy: ${ip} is refused`, (t) => {
    t.regex(instanceAddressProblem(ip, STRICT_ADDRESS_POLICY) ?? '', what);
  });
}

test('address policy: ordinary unicast addresses pass', (t) => {
  for (const ip of ['10.0.0.1', '192.168.1.20', '172.16.4.4', '8.8.8.8', '100.64.0.3'])
    t.is(instanceAddressProblem(ip, STRICT_ADDRESS_POLICY), undefined, ip);
});

test('address policy: loopback passes only with allowLoopback, and the reserved map still wins', (t) => {
  const sim: InstanceAddressPolicy = {
    allowLoopback: true,
    reserved: new Map([['127.0.0.1', "the cluster's API server"]]),
  };
  t.is(instanceAddressProblem('127.0.200.11', sim), undefined);
  t.regex(instanceAddressProblem('127.0.0.1', sim) ?? '', /the cluster's API server, not a Windows host/);
  t.regex(instanceAddressProblem('127.0.200.11', STRICT_ADDRESS_POLICY) ?? '', /loopback/);
});

test("address policy: the cluster's node addresses are refused", (t) => {
  const policy: InstanceAddressPolicy = {
    allowLoopback: false,
    reserved: new Map([['10.0.0.10', 'the address of node master-0']]),
  };
  t.regex(instanceAddressProblem('10.0.0.10', policy) ?? '', /node master-0/);
  t.is(instanceAddressProblem('10.0.0.11', policy), undefined);
});

test('windows-instances with a policy: DNS names are checked by the address they resolve to', async (t) => {
  const data = {
    'win.example': 'username=core',
    'lo.example': 'username=core',
    'meta.example': 'username=core',
    '127.0.0.1': 'username=core',
    '10.0.0.7': 'username=core',
  };
  const r = await parseWindowsInstances(data, [], resolver, STRICT_ADDRESS_POLICY);
  const byKey = Object.fromEntries(r.map((e) => [e.key, e.ok ? 'ok' : e.error]));
  t.is(byKey['win.example'], 'ok');
  t.is(byKey['10.0.0.7'], 'ok');
  t.regex(byKey['lo.example'] ?? '', /lo\.example resolves to 127\.0\.0\.5, which is a loopback address/);
  t.regex(byKey['meta.example'] ?? '', /resolves to 169\.254\.169\.254, which is a link-local/);
  t.regex(byKey['127.0.0.1'] ?? '', /127\.0\.0\.1 is a loopback address/);
});

test('windows-instances without a policy keeps the syntax-only behaviour (render, preflight)', async (t) => {
  const [r] = await parseWindowsInstances({ '127.0.0.1': 'username=core' }, [], resolver);
  t.true(r!.ok);
});
