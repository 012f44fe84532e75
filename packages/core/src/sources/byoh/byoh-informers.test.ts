import test from 'ava';
import type { CertificatesV1Api, CoreV1Api } from '@kubernetes/client-node';
import { FakeClock } from '../../kube/fake-clock.js';
import { silentLogger } from '../../kube/logger.js';
import type { WatchPort } from '../../kube/watch-port.js';
import { CSR_PAGE_SIZE, byohInformers } from './byoh-informers.js';

function csr(name: string): object {
  return {
    metadata: { name },
    spec: { request: '', signerName: 'kubernetes.io/kubelet-serving', usages: [] },
  };
}

test('the CSR informer lists every CSR of the cluster in pages', async (t) => {
  const asked: Record<string, unknown>[] = [];
  const certificates = {
    listCertificateSigningRequest: (q: Record<string, unknown>) => {
      asked.push(q);
      return Promise.resolve(
        q['_continue'] === undefined
          ? { items: [csr('a'), csr('b')], metadata: { resourceVersion: '5', _continue: 'next' } }
          : { items: [csr('c')], metadata: { resourceVersion: '5' } },
      );
    },
  } as unknown as CertificatesV1Api;
  const watch: WatchPort = () => Promise.resolve({ abort: () => undefined });
  const { csrs } = byohInformers({
    core: {} as CoreV1Api,
    certificates,
    watch,
    namespace: 'wmco',
    clock: new FakeClock(),
    logger: silentLogger,
  });
  await csrs.start();
  t.teardown(() => csrs.stop());
  t.deepEqual(
    csrs
      .list()
      .map((c) => c.metadata?.name)
      .sort(),
    ['a', 'b', 'c'],
  );
  t.deepEqual(asked, [{ limit: CSR_PAGE_SIZE }, { limit: CSR_PAGE_SIZE, _continue: 'next' }]);
});
