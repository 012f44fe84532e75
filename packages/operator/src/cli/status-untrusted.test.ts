import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import { readStatusView, renderView } from './status-view.js';

/** A status ConfigMap whose entry names a squatter Node (and junk someone wrote into the same field). */
function api(untrustedNodes: unknown): CoreV1Api {
  const entry = {
    address: '10.0.0.5',
    node: 'win-a',
    phase: 'Ready',
    since: new Date().toISOString(),
    phaseSeconds: {},
    untrustedNodes,
  };
  return {
    readNamespacedConfigMap: () => Promise.resolve({ data: { '10.0.0.5': JSON.stringify(entry) } }),
    listNode: () => Promise.resolve({ items: [] }),
  } as unknown as CoreV1Api;
}

const read = (untrusted: unknown): ReturnType<typeof readStatusView> =>
  readStatusView(api(untrusted), 'wmco', () => undefined);

test('wmco status prints the Nodes that claim an entry without the operator record', async (t) => {
  const view = await read(['win-s', 'win-\u001b[31mt', 42]);
  const [header, row] = renderView(view, undefined, true).split('\n');
  t.regex(header ?? '', /UNTRUSTED NODES\s+CONDITIONS\s+LAST ERROR/);
  t.regex(row ?? '', /win-s,win-\\u001b\[31mt\s/);
  const json = JSON.parse(renderView(view, 'json', true)) as { instances: { untrustedNodes?: unknown }[] };
  t.deepEqual(json.instances[0]?.untrustedNodes, ['win-s', 'win-\\u001b[31mt']);
  t.regex(renderView(view, 'yaml', true), /untrustedNodes:\n\s+- win-s\n/);
});

test('wmco status shows - when no Node claims the entry untrusted', async (t) => {
  const [header, row] = renderView(await read(undefined), undefined, true).split('\n');
  const at = (header ?? '').indexOf('UNTRUSTED NODES');
  t.true(at > 0);
  t.is(row?.slice(at, at + 2), '- ');
  t.false(
    'untrustedNodes' in
      (JSON.parse(renderView(await read('win-s'), 'json', true)) as { instances: object[] }).instances[0]!,
  );
});
