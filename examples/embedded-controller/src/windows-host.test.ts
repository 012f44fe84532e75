import test from 'ava';
import { hostsByAddress, leavingHosts, WINDOWS_HOST_FINALIZER, type WindowsHost } from './windows-host.js';

const host = (name: string, created: string, spec: WindowsHost['spec'], deleting = false): WindowsHost => ({
  metadata: {
    name,
    creationTimestamp: new Date(created),
    ...(deleting ? { deletionTimestamp: new Date(created) } : {}),
  },
  ...(spec ? { spec } : {}),
});

test('each address is listed once, by its oldest WindowsHost; the others are duplicates naming it', (t) => {
  const { listed, duplicates } = hostsByAddress([
    host('b-newer', '2026-01-02T00:00:00Z', { address: '10.0.0.5', user: 'Administrator' }),
    host('a-older', '2026-01-01T00:00:00Z', { address: '10.0.0.5', user: 'Administrator' }),
    host('c', '2026-01-03T00:00:00Z', { address: '10.0.0.6', user: 'capi' }),
  ]);
  t.deepEqual(
    [...listed].map(([a, h]) => [a, h.metadata?.name]),
    [
      ['10.0.0.5', 'a-older'],
      ['10.0.0.6', 'c'],
    ],
  );
  t.deepEqual(
    duplicates.map((d) => [d.host.metadata?.name, d.listedBy]),
    [['b-newer', 'a-older']],
  );
});

test('a WindowsHost being deleted, or without an address or user, lists nothing', (t) => {
  const { listed, duplicates } = hostsByAddress([
    host('gone', '2026-01-01T00:00:00Z', { address: '10.0.0.5', user: 'Administrator' }, true),
    host('no-user', '2026-01-01T00:00:00Z', { address: '10.0.0.6' }),
    host('no-spec', '2026-01-01T00:00:00Z', undefined),
  ]);
  t.is(listed.size, 0);
  t.deepEqual(duplicates, []);
});

test('a deleted WindowsHost is leaving while the finalizer holds it, unless a live one lists its address', (t) => {
  const held = (h: WindowsHost): WindowsHost => ({
    ...h,
    metadata: { ...h.metadata, finalizers: [WINDOWS_HOST_FINALIZER] },
  });
  const spec = (address: string): WindowsHost['spec'] => ({ address, user: 'Administrator' });
  const leaving = leavingHosts([
    held(host('held', '2026-01-01T00:00:00Z', spec('10.0.0.5'), true)),
    host('released', '2026-01-01T00:00:00Z', spec('10.0.0.6'), true),
    held(host('replaced', '2026-01-01T00:00:00Z', spec('10.0.0.7'), true)),
    host('live', '2026-01-02T00:00:00Z', spec('10.0.0.7')),
    held(host('live-held', '2026-01-02T00:00:00Z', spec('10.0.0.8'))),
  ]);
  t.deepEqual(
    [...leaving].map(([a, h]) => [a, h.metadata?.name]),
    [['10.0.0.5', 'held']],
  );
});
