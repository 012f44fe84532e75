import test, { type ExecutionContext } from 'ava';
import { sharedTransfers } from '@wmco/core/internal';
import { type SshHostOptions } from '@wmco/core';
import { Payload, startHostWorld, type HostWorld } from './windows-host-fixture.js';

/** `sharedTransfers(slots)`, counting the uploads running and the most that ever ran at once. */
function counted(slots: number): {
  transfers: Required<SshHostOptions>['transfers'];
  calls: number;
  most: number;
} {
  const inner = sharedTransfers(slots);
  const c = { calls: 0, most: 0, running: 0 };
  return {
    get calls() {
      return c.calls;
    },
    get most() {
      return c.most;
    },
    transfers: (upload) =>
      inner(async () => {
        c.calls++;
        c.most = Math.max(c.most, ++c.running);
        try {
          return await upload();
        } finally {
          c.running--;
        }
      }),
  };
}

/** Two host worlds on 200 KB/s links (a 40 KB file takes a moment, so overlapping uploads would show). */
async function twoSlowHosts(t: ExecutionContext): Promise<[HostWorld, HostWorld]> {
  const costs = { bandwidthBytesPerSec: 200_000, latencyMs: 1 };
  const worlds = await Promise.all([startHostWorld({ costs }), startHostWorld({ costs })]);
  t.teardown(() => Promise.all(worlds.map((w) => w.stop())));
  return worlds;
}

test('hosts sharing one upload slot upload one after another, each host its whole upload in the slot', async (t) => {
  const [a, b] = await twoSlowHosts(t);
  const slot = counted(1);
  const payload = new Payload();
  const files = ['a', 'b', 'c'].map((n) => payload.add(Buffer.alloc(40_000, n)));
  const hosts = [a.connect({ transfers: slot.transfers }), b.connect({ transfers: slot.transfers })];
  const reports = await Promise.all(
    hosts.map((h) => h.upload(files.map((sha256) => ({ sha256, source: payload.content(sha256) })))),
  );
  t.deepEqual(
    reports.map((r) => r.uploaded.length),
    [3, 3],
  );
  t.is(slot.most, 1, 'never two hosts uploading at once');
  t.is(slot.calls, 2, "one slot per host's whole upload, not per file");
  // Nothing to send takes no slot; everything staged already is looked at within one.
  await hosts[0]!.upload([]);
  t.is(slot.calls, 2);
  const again = await hosts[0]!.upload(files.map((sha256) => ({ sha256, source: payload.content(sha256) })));
  t.deepEqual(again.skipped.length, 3);
});

test('with two slots two hosts upload at the same time', async (t) => {
  const [a, b] = await twoSlowHosts(t);
  const slots = counted(2);
  const payload = new Payload();
  const sha256 = payload.add(Buffer.alloc(100_000, 'x'));
  await Promise.all(
    [a, b].map((w) =>
      w.connect({ transfers: slots.transfers }).upload([{ sha256, source: payload.content(sha256) }]),
    ),
  );
  t.is(slots.most, 2);
});
