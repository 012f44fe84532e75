import test from 'ava';
import type { HostTarget } from './join-deps.js';
import { emptyHostSpec, StateHost, stateMatching } from './lifecycle.test-helper.js';
import { addressGuardedOpener, AddressRefusedError } from './address-guarded-host.js';

const empty = stateMatching(emptyHostSpec());
const QUERY = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
const target = (ipv4: string): HostTarget => ({
  address: ipv4,
  ipv4,
  username: 'Administrator',
  privateKeyPem: 'k',
});

test('a target the policy refuses gets no call at all; an allowed one is served', async (t) => {
  const inner = new StateHost(empty);
  const reserved = new Map([['10.0.0.1', "the cluster's API server"]]);
  const open = addressGuardedOpener(
    () => inner,
    () => Promise.resolve({ allowLoopback: false, reserved }),
  );
  const api = open(target('10.0.0.1'));
  await t.throwsAsync(api.observe(QUERY), { instanceOf: AddressRefusedError, message: /API server/ });
  await t.throwsAsync(
    open(target('127.0.0.5')).deconfigure({
      services: [],
      removeTaggedServices: false,
      envVars: [],
      hnsNetworks: [],
      directories: [],
      keep: [],
    }),
    {
      message: /loopback/,
    },
  );
  t.is(inner.queries.length, 0, 'nothing reached the host');
  await open(target('10.0.0.7')).observe(QUERY);
  t.is(inner.queries.length, 1);
});
