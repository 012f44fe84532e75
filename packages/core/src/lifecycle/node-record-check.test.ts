import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { encryptUsername } from '../identity/username-crypto.js';
import type { NodeRecord } from '../identity/node-record.js';
import { recordDisagreements } from './node-record-check.js';

const KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const operator = { privateKeyPem: KEY, publicKeyHash: 'h1' };

const RECORD: NodeRecord = {
  source: 'windows-instances',
  instance: '10.0.0.5',
  address: '10.0.0.5',
  nodeName: 'win-a',
  username: 'Administrator',
  appliedTags: [{ key: 'k', value: 'owned' }],
  recordedAt: '2026-01-01T00:00:00Z',
};

function node(annotations: Record<string, string>, ip = '10.0.0.5'): V1Node {
  return {
    metadata: {
      name: 'win-a',
      annotations: {
        'windowsmachineconfig.openshift.io/instance-address': '10.0.0.5',
        'windowsmachineconfig.openshift.io/pub-key-hash': 'h1',
        'windowsmachineconfig.openshift.io/username': encryptUsername('Administrator', KEY),
        ...annotations,
      },
    },
    status: { addresses: [{ type: 'InternalIP', address: ip }] },
  };
}

test('a Node that agrees with its record has no disagreement', (t) => {
  t.deepEqual(recordDisagreements(node({}), RECORD, operator), []);
  const tags = JSON.stringify([{ key: 'k', value: 'owned' }]);
  t.deepEqual(
    recordDisagreements(
      node({ 'windowsmachineconfig.openshift.io/cloud-applied-tags': tags }),
      RECORD,
      operator,
    ),
    [],
  );
});

test('each field a node writes is compared with the record', (t) => {
  const one = (n: V1Node): string => recordDisagreements(n, RECORD, operator).join('; ');
  t.regex(
    one(node({ 'windowsmachineconfig.openshift.io/instance-address': '10.0.0.9' })),
    /instance-address annotation says "10\.0\.0\.9"/,
  );
  t.regex(one(node({}, '10.0.0.9')), /InternalIP is 10\.0\.0\.9, the record 10\.0\.0\.5/);
  t.regex(
    one(node({ 'windowsmachineconfig.openshift.io/username': encryptUsername('root', KEY) })),
    /username annotation names another user/,
  );
  t.regex(
    one(
      node({ 'windowsmachineconfig.openshift.io/cloud-applied-tags': '[{"key":"Name","value":"victim"}]' }),
    ),
    /cloud-applied-tags annotation lists other tags/,
  );
  t.regex(
    one({ ...node({}), metadata: { ...node({}).metadata, name: 'win-x' } }),
    /named win-x, the record win-a/,
  );
});

test('a username written with an earlier key (a rotation is due) is no contradiction', (t) => {
  const old = node({
    'windowsmachineconfig.openshift.io/pub-key-hash': 'h0',
    'windowsmachineconfig.openshift.io/username': 'wmco1:AAAA',
  });
  t.deepEqual(recordDisagreements(old, RECORD, operator), []);
});
