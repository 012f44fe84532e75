import test from 'ava';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import { MemoryNodeRecords } from './memory-node-records.js';
import type { NodeRecord } from './node-record.js';
import { RecordedHostKeys } from './recorded-host-keys.js';

const KEY_A = { type: 'ssh-ed25519', base64: 'AAAA' };
const KEY_B = { type: 'ssh-ed25519', base64: 'BBBB' };

const record = (over: Partial<Record<keyof NodeRecord, unknown>> = {}): NodeRecord => {
  const r = {
    source: 'windows-instances',
    instance: 'win-a.example.com',
    address: '10.0.0.5',
    dnsName: 'win-a.example.com',
    nodeName: 'win-a',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-11-27T00:00:00Z',
    ...over,
  };
  if (r.dnsName === undefined) delete r.dnsName;
  return r as NodeRecord;
};

function stores(initial: readonly NodeRecord[] = []): {
  records: MemoryNodeRecords;
  pending: InMemoryHostKeyStore;
  pins: RecordedHostKeys;
} {
  const records = new MemoryNodeRecords(initial);
  const pending = new InMemoryHostKeyStore();
  return { records, pending, pins: new RecordedHostKeys(records, pending) };
}

test('a recorded host is checked against its record, under its address, name and any port', async (t) => {
  const { pending, pins } = stores([record({ hostKey: KEY_A })]);
  await pending.pin('10.0.0.5', KEY_B); // a stale pending pin never wins over the record
  t.deepEqual(await pins.get('10.0.0.5'), KEY_A);
  t.deepEqual(await pins.get('10.0.0.5:2222'), KEY_A);
  t.deepEqual(await pins.get('WIN-A.example.com'), KEY_A);
  t.is(await pins.get('10.0.0.6'), undefined);
});

test('the first key of a host with no record is pending, and the record written later takes it', async (t) => {
  const { records, pending, pins } = stores();
  await pins.pin('10.0.0.5:2222', KEY_A);
  await pins.pin('win-a.example.com:2222', KEY_A);
  t.deepEqual(await pins.get('10.0.0.5:2222'), KEY_A, 'pinned before the record exists');
  t.is(records.all().length, 0);
  // The join writes the record with the pin it read; the pending pins of the host go.
  await pins.records.put(record({ hostKey: KEY_A }));
  t.deepEqual(records.get('windows-instances', 'win-a.example.com')?.hostKey, KEY_A);
  t.is(await pending.get('10.0.0.5:2222'), undefined);
  t.is(await pending.get('win-a.example.com:2222'), undefined);
  t.deepEqual(await pins.get('10.0.0.5:2222'), KEY_A, 'now read from the record');
});

test('a record written without a pin takes the pending one (on write, or at the next read)', async (t) => {
  const { records, pending, pins } = stores();
  await pins.pin('10.0.0.5', KEY_A);
  await pins.records.put(record({ instance: '10.0.0.5', dnsName: undefined }));
  t.deepEqual(records.get('windows-instances', '10.0.0.5')?.hostKey, KEY_A);
  t.is(await pending.get('10.0.0.5'), undefined);

  const other = stores([record({ instance: '10.0.0.7', address: '10.0.0.7', dnsName: undefined })]);
  await other.pending.pin('10.0.0.7:2222', KEY_B); // moved from the old ConfigMap before the record existed
  t.deepEqual(await other.pins.get('10.0.0.7:2222'), KEY_B);
  t.deepEqual(other.records.get('windows-instances', '10.0.0.7')?.hostKey, KEY_B, 'handed to the record');
  t.is(await other.pending.get('10.0.0.7:2222'), undefined);
});

test('a first key of a recorded host without a pin is written into the record, never over one', async (t) => {
  const { records, pending, pins } = stores([record()]);
  await pins.pin('10.0.0.5', KEY_A);
  t.deepEqual(records.get('windows-instances', 'win-a.example.com')?.hostKey, KEY_A);
  t.is(await pending.get('10.0.0.5'), undefined);
  await t.throwsAsync(pins.pin('10.0.0.5', KEY_B), { name: 'RecordedHostKeyConflictError' });
  t.deepEqual(records.get('windows-instances', 'win-a.example.com')?.hostKey, KEY_A);
});

test('a pin goes with its record, and a pending pin with its abandoned join', async (t) => {
  const { pins } = stores([record({ hostKey: KEY_A })]);
  await pins.records.remove('windows-instances', 'win-a.example.com');
  t.is(await pins.get('10.0.0.5'), undefined, 'a new machine at the address is trusted on first use');
  await pins.pin('10.0.0.8', KEY_B);
  t.deepEqual(await pins.forgetHosts(['10.0.0.8']), ['10.0.0.8']);
  t.is(await pins.get('10.0.0.8'), undefined);
});
