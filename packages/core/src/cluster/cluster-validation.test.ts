import test from 'ava';
import { kubernetesVersionProblem, networkProblems, vxlanPort } from './cluster-validation.js';
import type { ClusterNetworkFacts } from '../desired/cluster-facts.js';

const good: ClusterNetworkFacts = {
  networkType: 'OVNKubernetes',
  serviceNetwork: ['172.30.0.0/16'],
  clusterNetwork: [{ cidr: '10.128.0.0/14' }],
  ovnKubernetesConfig: {
    hybridOverlayConfig: { hybridClusterNetwork: [{ cidr: '10.132.0.0/14', hostPrefix: 23 }] },
  },
};
const messages = (f: ClusterNetworkFacts) => networkProblems(f).map((p) => p.message);

test('upstream vectors: network type and hybrid overlay', (t) => {
  t.deepEqual(messages(good), []);
  t.deepEqual(messages({ ...good, networkType: 'OpenShiftSDN' }), [
    'OpenShiftSDN : network type not supported',
  ]);
  const { ovnKubernetesConfig: _unused, ...noOvn } = good;
  t.deepEqual(messages(noOvn), ['cluster is not configured for OVN hybrid networking']);
  t.deepEqual(messages({ ...good, ovnKubernetesConfig: {} }), [
    'cluster is not configured for OVN hybrid networking',
  ]);
  t.deepEqual(
    messages({ ...good, ovnKubernetesConfig: { hybridOverlayConfig: { hybridClusterNetwork: [] } } }),
    ['invalid OVN hybrid networking configuration'],
  );
});

test('service CIDR required; class E and malformed CIDRs refused', (t) => {
  t.deepEqual(messages({ ...good, serviceNetwork: [] }), ['cluster has no service network']);
  t.deepEqual(messages({ ...good, clusterNetwork: [{ cidr: '240.10.0.0/16' }] }), [
    'cluster network 240.10.0.0/16 uses class E addresses (240.0.0.0/4)',
  ]);
  t.deepEqual(messages({ ...good, clusterNetwork: [{ cidr: '224.0.0.0/3' }] }), [
    'cluster network 224.0.0.0/3 uses class E addresses (240.0.0.0/4)',
  ]);
  t.deepEqual(messages({ ...good, serviceNetwork: ['172.30.0.0'] }), [
    'service network 172.30.0.0 is not a valid CIDR',
  ]);
  t.true(networkProblems({ ...good, networkType: 'Calico' }).every((p) => p.fatal));
});

test('upstream vectors: Kubernetes version range v1.36..v1.37', (t) => {
  t.truthy(kubernetesVersionProblem('v1.17.1'));
  t.is(kubernetesVersionProblem('v1.36.0'), undefined);
  t.is(kubernetesVersionProblem('v1.36.4'), undefined);
  t.is(kubernetesVersionProblem('v1.37.2+a80dac2'), undefined);
  t.regex(
    kubernetesVersionProblem('v1.38.2')?.message ?? '',
    /not supported: this release supports v1.36 to v1.37/,
  );
  t.regex(kubernetesVersionProblem('banana')?.message ?? '', /cannot parse/);
});

test('upstream vectors: VXLAN port', (t) => {
  t.is(vxlanPort({ ovnKubernetesConfig: { hybridOverlayConfig: { hybridOverlayVXLANPort: 4800 } } }), '4800');
  t.is(vxlanPort(good), '');
});
