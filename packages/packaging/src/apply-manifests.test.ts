import test from 'ava';
import { applyManifestsTest, simClusterStarter } from './apply-manifests.js';

// Enabled as soon as @wmco/sim exports startSimCluster (the simulated API server is built on another
// branch); until then the test is skipped with this TODO.
const sim = (await import('@wmco/sim')) as Record<string, unknown>;
const start = sim['startSimCluster'];

if (typeof start === 'function') {
  test(
    'deploy/ applies cleanly to the simulated API server with kubectl apply',
    applyManifestsTest(simClusterStarter(start as (options?: unknown) => Promise<unknown>)),
  );
} else {
  test.skip('TODO(lead): deploy/ applies to the simulated API server — waiting for @wmco/sim startSimCluster', () => {});
}

test('the adapter refuses a sim handle it cannot use, and stops it', async (t) => {
  let stopped = false;
  const starter = simClusterStarter(() =>
    Promise.resolve({
      stop: () => {
        stopped = true;
        return Promise.resolve();
      },
    }),
  );
  await t.throwsAsync(starter(), { message: /neither kubeconfigPath \(file\) nor kubeconfig \(YAML text\)/ });
  t.true(stopped);
  await t.throwsAsync(simClusterStarter(() => Promise.resolve({ kubeconfig: 'x' }))(), {
    message: /no stop\(\) or close\(\)/,
  });
});

test('the adapter writes a kubeconfig given as text and removes it on stop', async (t) => {
  const { readFile } = await import('node:fs/promises');
  const handle = await simClusterStarter(() =>
    Promise.resolve({ kubeconfig: 'apiVersion: v1\n', close: () => Promise.resolve() }),
  )();
  t.is(await readFile(handle.kubeconfigPath, 'utf8'), 'apiVersion: v1\n');
  await handle.stop();
  await t.throwsAsync(readFile(handle.kubeconfigPath, 'utf8'), { code: 'ENOENT' });
});
