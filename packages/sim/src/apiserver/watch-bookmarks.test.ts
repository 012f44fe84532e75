import test from 'ava';
import { request } from 'node:https';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';
import { WatchRegistry } from './watch-stream.js';

// An idle watch is silent (issue 24): bookmarks only when asked for, every minute and 2 s before the
// deadline, as kube-apiserver's cacher sends them; the stream then ends cleanly at timeoutSeconds.

let sim: SimApiServer;
test.before(async () => {
  sim = await startApiServerWith(['default']);
});
test.after.always(async () => {
  await sim.stop();
});

/** Every line a watch sends until the server ends it. */
function watchUntilEnd(query: string): Promise<string[]> {
  const url = new URL(`/api/v1/namespaces/default/configmaps?watch=true&${query}`, sim.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: sim.caPem, headers: { Authorization: `Bearer ${sim.admin.token}` } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve(text.split('\n').filter((l) => l !== '')));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test("the default bookmark interval is the cacher's minute", (t) => {
  t.is(new WatchRegistry().bookmarkIntervalMs, 60_000);
});

test('an idle watch without allowWatchBookmarks sends nothing before its timeout', async (t) => {
  const rv = String(sim.store.currentRv);
  t.deepEqual(await watchUntilEnd(`resourceVersion=${rv}&timeoutSeconds=3`), []);
});

test('an idle watch with bookmarks gets one, 2 s before its deadline, and no periodic ones before', async (t) => {
  const rv = String(sim.store.currentRv);
  const lines = await watchUntilEnd(`resourceVersion=${rv}&timeoutSeconds=8&allowWatchBookmarks=true`);
  t.is(lines.length, 1, lines.join('\n'));
  t.like(JSON.parse(lines[0] ?? '{}'), { type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1' } });
});
