import test from 'ava';
import {
  decodeNodeRecord,
  hostSourceRecord,
  isRecordSource,
  nodeRecordConfigMap,
  nodeRecordName,
  sourceIdProblem,
  type NodeRecord,
} from './node-record.js';

const record = (source: string): NodeRecord =>
  ({
    source,
    instance: '10.0.0.5',
    address: '10.0.0.5',
    nodeName: 'win-e',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  }) as unknown as NodeRecord;

test('an embedder’s source id is a DNS-1123 label that no built-in source has', (t) => {
  t.is(sourceIdProblem('windows-hosts'), undefined);
  t.is(hostSourceRecord('windows-hosts'), 'source/windows-hosts');
  for (const id of ['byoh', 'machine', 'machines', 'windows-instances'])
    t.regex(sourceIdProblem(id) ?? '', /reserved/, id);
  for (const id of ['', 'Windows', 'a/b', '-a', 'a'.repeat(64), 'source/x'])
    t.regex(sourceIdProblem(id) ?? '', /DNS-1123/, id);
  t.throws(() => hostSourceRecord('byoh'), { message: /reserved/ });
});

test('a record of an embedder’s source is read back; one of an unknown or malformed source is not trusted', (t) => {
  const own = record('source/windows-hosts');
  t.deepEqual(decodeNodeRecord(nodeRecordConfigMap('ns', own)), own);
  for (const source of ['source/byoh', 'source/Bad', 'source/', 'windows-hosts', 'byoh']) {
    t.false(isRecordSource(source), source);
    // Even under the name its key would give, the ConfigMap holds no record.
    const cm = nodeRecordConfigMap('ns', record(source));
    t.is(decodeNodeRecord(cm), undefined, source);
  }
});

test('the same host under two sources has two records: neither source can read or overwrite the other’s', (t) => {
  t.not(nodeRecordName('source/windows-hosts', '10.0.0.5'), nodeRecordName('windows-instances', '10.0.0.5'));
  // A record copied under another source's name is refused (the name is the record's own key's).
  const copied = nodeRecordConfigMap('ns', record('source/windows-hosts'));
  copied.metadata = { ...copied.metadata, name: nodeRecordName('windows-instances', '10.0.0.5') };
  t.is(decodeNodeRecord(copied), undefined);
});
