import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyManifestsTest, simClusterStarter } from './apply-manifests.js';
import { rbacMatrixTest } from './rbac-matrix.js';

// Enabled as soon as @wmco/sim exports startSimCluster (the simulated API server is built on another
// branch); until then the test is skipped with this TODO.
const sim = (await import('@wmco/sim')) as Record<string, unknown>;
const start = sim['startSimCluster'];

if (typeof start === 'function') {
  const startSim = start as (options?: unknown) => Promise<unknown>;
  test(
    'deploy/ applies cleanly to the simulated API server with kubectl apply',
    applyManifestsTest(simClusterStarter(startSim)),
  );
  test(
    'with RBAC enforced, the operator can do exactly what deploy/ grants (SelfSubjectAccessReviews)',
    rbacMatrixTest(simClusterStarter(startSim, { rbac: true })),
  );
} else {
  test.skip('TODO(lead): deploy/ applies to the simulated API server — waiting for @wmco/sim startSimCluster', () => {});
  test.skip('TODO(lead): deploy/ RBAC can-i matrix on the simulated API server — waiting for @wmco/sim startSimCluster', () => {});
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
  await t.throwsAsync(starter(), {
    message:
      /no writeKubeconfigs\(dir\) with an admin kubeconfig, kubeconfigPath \(file\) or kubeconfig \(YAML text\)/,
  });
  t.true(stopped);
  await t.throwsAsync(simClusterStarter(() => Promise.resolve({ kubeconfig: 'x' }))(), {
    message: /no stop\(\) or close\(\)/,
  });
});

test('the adapter writes a kubeconfig given as text and removes it on stop', async (t) => {
  const handle = await simClusterStarter(() =>
    Promise.resolve({ kubeconfig: 'apiVersion: v1\n', close: () => Promise.resolve() }),
  )();
  t.is(await readFile(handle.kubeconfigPath, 'utf8'), 'apiVersion: v1\n');
  await handle.stop();
  await t.throwsAsync(readFile(handle.kubeconfigPath, 'utf8'), { code: 'ENOENT' });
});

test('the adapter uses the admin kubeconfig that writeKubeconfigs writes', async (t) => {
  const handle = await simClusterStarter(() =>
    Promise.resolve({
      writeKubeconfigs: async (dir: string) => {
        await writeFile(join(dir, 'admin.kubeconfig'), 'admin\n');
        return { admin: join(dir, 'admin.kubeconfig'), operator: join(dir, 'operator.kubeconfig') };
      },
      stop: () => Promise.resolve(),
    }),
  )();
  t.is(await readFile(handle.kubeconfigPath, 'utf8'), 'admin\n');
  await handle.stop();
  await t.throwsAsync(readFile(handle.kubeconfigPath, 'utf8'), { code: 'ENOENT' });
});
