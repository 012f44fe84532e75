import test from 'ava';
import { FACTS } from '../lifecycle/lifecycle.test-helper.js';
import { cloudNodeManagerFiles } from './cloud-node-manager-kubeconfig.js';

const TOKEN = { caCrt: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n', token: 'sa-token' };

test('with a cloud node manager: its own ServiceAccount kubeconfig, never the node’s', (t) => {
  const [file, ...rest] = cloudNodeManagerFiles({ ...FACTS, cloudNodeManagerToken: TOKEN }, true);
  t.deepEqual(rest, []);
  t.is(file?.path, 'C:\\k\\cloud-node-manager-kubeconfig');
  const kc = JSON.parse(file?.content ?? '{}') as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { name: string; user: { token: string } }[];
  };
  t.is(kc.clusters[0]?.cluster.server, FACTS.apiServerInternalUrl);
  t.is(
    Buffer.from(kc.clusters[0]?.cluster['certificate-authority-data'] ?? '', 'base64').toString(),
    TOKEN.caCrt,
  );
  t.deepEqual(kc.users, [{ name: 'cloud-node-manager', user: { token: 'sa-token' } }]);
});

test('without a cloud node manager: no file, token or not', (t) => {
  t.deepEqual(cloudNodeManagerFiles(FACTS, false), []);
  t.deepEqual(cloudNodeManagerFiles({ ...FACTS, cloudNodeManagerToken: TOKEN }, false), []);
});

test('a cloud node manager without its token Secret is an error naming the Secret', (t) => {
  t.throws(() => cloudNodeManagerFiles(FACTS, true), {
    message: /Secret windows-cloud-node-manager-token in the operator's namespace/,
  });
});
