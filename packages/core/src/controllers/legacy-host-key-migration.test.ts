import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import { MemoryNodeRecords } from '../identity/memory-node-records.js';
import type { NodeRecord } from '../identity/node-record.js';
import { RecordedHostKeys } from '../identity/recorded-host-keys.js';
import { silentLogger } from '../kube/logger.js';
import { moveLegacyHostKeys } from './legacy-host-key-migration.js';

const record = (instance: string, address: string, hostKey?: NodeRecord['hostKey']): NodeRecord => ({
  source: 'windows-instances',
  instance,
  address,
  nodeName: `win-${address.split('.').at(-1) ?? ''}`,
  username: 'Administrator',
  appliedTags: [],
  recordedAt: '2026-11-27T00:00:00Z',
  ...(hostKey ? { hostKey } : {}),
});

function api(data: Record<string, string> | undefined): { core: CoreV1Api; deleted: string[] } {
  const deleted: string[] = [];
  const notFound = Object.assign(new Error('not found'), { code: 404 });
  const core = {
    readNamespacedConfigMap: ({ name }: { name: string }) =>
      data === undefined ? Promise.reject(notFound) : Promise.resolve({ metadata: { name }, data }),
    deleteNamespacedConfigMap: ({ name }: { name: string }) => {
      deleted.push(name);
      return Promise.resolve({});
    },
  } as unknown as CoreV1Api;
  return { core, deleted };
}

test('the old pins move once: into records where one exists, else pending; then the ConfigMap goes', async (t) => {
  const records = new MemoryNodeRecords([
    record('10.0.0.1', '10.0.0.1'),
    record('10.0.0.2', '10.0.0.2', { type: 'ssh-ed25519', base64: 'RECORDED' }),
  ]);
  const pending = new InMemoryHostKeyStore();
  const pins = new RecordedHostKeys(records, pending);
  const { core, deleted } = api({
    '10.0.0.1:2222': 'ssh-ed25519 ONE',
    '10.0.0.2': 'ssh-ed25519 OTHER',
    '10.0.0.3': 'ssh-rsa THREE',
    '10.0.0.4': 'garbage',
  });
  const moved = await moveLegacyHostKeys(core, 'wmco', pins, silentLogger);
  t.deepEqual(moved, {
    recorded: ['10.0.0.1:2222'],
    pending: ['10.0.0.3'],
    refused: ['10.0.0.2', '10.0.0.4'],
  });
  t.deepEqual(records.get('windows-instances', '10.0.0.1')?.hostKey, { type: 'ssh-ed25519', base64: 'ONE' });
  t.is(records.get('windows-instances', '10.0.0.2')?.hostKey?.base64, 'RECORDED', 'the record wins');
  t.deepEqual(await pending.get('10.0.0.3'), { type: 'ssh-rsa', base64: 'THREE' });
  t.is(await pending.get('10.0.0.1:2222'), undefined, 'a recorded pin is not also pending');
  t.deepEqual(deleted, ['windows-ssh-host-keys']);
});

test('without the old ConfigMap there is nothing to move', async (t) => {
  const pins = new RecordedHostKeys(new MemoryNodeRecords(), new InMemoryHostKeyStore());
  const { core, deleted } = api(undefined);
  t.is(await moveLegacyHostKeys(core, 'wmco', pins, silentLogger), undefined);
  t.deepEqual(deleted, []);
});
