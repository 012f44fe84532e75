import test from 'ava';
import type { CoreV1Api, CoreV1Event } from '@kubernetes/client-node';
import { BoundedRecentMap } from '../event-recorder.js';
import { KubeEventRecorder } from './kube-event-recorder.js';

const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'windows-instances', namespace: 'ns' };

function fakeEvents(): { api: CoreV1Api; created: CoreV1Event[]; patched: number } {
  const state = { created: [] as CoreV1Event[], patched: 0 };
  const api = {
    createNamespacedEvent: (r: { body: CoreV1Event }) => {
      state.created.push(r.body);
      return Promise.resolve(r.body);
    },
    patchNamespacedEvent: () => {
      state.patched++;
      return Promise.resolve({});
    },
  } as unknown as CoreV1Api;
  return {
    api,
    get created() {
      return state.created;
    },
    get patched() {
      return state.patched;
    },
  };
}

test('the recent map keeps at most max entries, least recently used out first', (t) => {
  const m = new BoundedRecentMap<number>(3);
  m.set('a', 1);
  m.set('b', 2);
  m.set('c', 3);
  t.is(m.get('a'), 1, 'a is now the most recent');
  m.set('d', 4);
  t.is(m.size, 3);
  t.is(m.get('b'), undefined, 'b was the least recently used');
  t.is(m.get('a'), 1);
  t.throws(() => new BoundedRecentMap(0));
});

test('event de-duplication memory stays bounded under many distinct messages', async (t) => {
  const f = fakeEvents();
  const recorder = new KubeEventRecorder(f.api, {
    component: 'c',
    scrub: (s) => s,
    dedupLimit: 10,
  });
  for (let i = 0; i < 100; i++) await recorder.record(ref, 'Warning', 'R', `message ${i}`);
  t.is(f.created.length, 100);
  const seen = (recorder as unknown as { seen: BoundedRecentMap<unknown> }).seen;
  t.is(seen.size, 10);
  await recorder.record(ref, 'Warning', 'R', 'message 99');
  t.is(f.patched, 1, 'a recent message is still aggregated');
  await recorder.record(ref, 'Warning', 'R', 'message 0');
  t.is(f.created.length, 101, 'a forgotten one is created again');
});

test('event messages are redacted and free of control and ANSI characters', async (t) => {
  const f = fakeEvents();
  const recorder = new KubeEventRecorder(f.api, {
    component: 'c',
    scrub: (s) => s.replaceAll('hunter2', '[REDACTED]'),
  });
  await recorder.record(ref, 'Warning', 'R', 'host said \u001b[31mhunter2\u001b[0m\r\nand\u0007 more');
  t.is(f.created[0]?.message, 'host said [REDACTED] and more');
});

function withObjects(api: CoreV1Api, uids: Record<string, string>): CoreV1Api {
  const read = (key: string): Promise<unknown> =>
    uids[key] === undefined
      ? Promise.reject(new Error(`404 ${key} not found`))
      : Promise.resolve({ metadata: { uid: uids[key] } });
  return Object.assign(api, {
    readNode: (r: { name: string }) => read(`Node/${r.name}`),
    readNamespacedConfigMap: (r: { name: string; namespace: string }) =>
      read(`ConfigMap/${r.namespace}/${r.name}`),
  });
}

test('events carry the uid of the ConfigMap or Node they are about, so kubectl describe lists them', async (t) => {
  const f = fakeEvents();
  const api = withObjects(f.api, {
    'ConfigMap/ns/windows-instances': 'cm-uid',
    'Node/win-a': 'node-uid',
  });
  const recorder = new KubeEventRecorder(api, { component: 'c', scrub: (s) => s });
  await recorder.record(ref, 'Normal', 'R', 'about the config map');
  await recorder.record({ apiVersion: 'v1', kind: 'Node', name: 'win-a' }, 'Normal', 'R', 'about a node');
  await recorder.record({ apiVersion: 'v1', kind: 'Node', name: 'gone' }, 'Warning', 'R', 'node is gone');
  await recorder.record({ ...ref, uid: 'given' }, 'Normal', 'R', 'uid given');
  t.deepEqual(
    f.created.map((e) => [e.involvedObject.kind, e.involvedObject.uid, e.involvedObject.namespace]),
    [
      ['ConfigMap', 'cm-uid', 'ns'],
      ['Node', 'node-uid', undefined],
      ['Node', undefined, undefined],
      ['ConfigMap', 'given', 'ns'],
    ],
  );
  t.is(
    f.created[1]?.metadata?.namespace,
    'default',
    'a cluster-scoped object’s events go to default, as the API server requires',
  );
});
