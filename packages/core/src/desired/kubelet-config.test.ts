import test from 'ava';
import { bootstrapKubeconfig } from './bootstrap-kubeconfig.js';
import { clusterDnsAddress } from './cluster-dns.js';
import { kubeletConfiguration } from './kubelet-config.js';

// nodeconfig_test.go createKubeletConf("10.0.128.8/24"), byte for byte.
const EXPECTED =
  '{"kind":"KubeletConfiguration","apiVersion":"kubelet.config.k8s.io/v1beta1","syncFrequency":"0s","fileCheckFrequency":"0s","httpCheckFrequency":"0s","rotateCertificates":true,"serverTLSBootstrap":true,"authentication":{"x509":{"clientCAFile":"C:\\\\k\\\\kubelet-ca.crt"},"webhook":{"cacheTTL":"0s"},"anonymous":{"enabled":false}},"authorization":{"webhook":{"cacheAuthorizedTTL":"0s","cacheUnauthorizedTTL":"0s"}},"clusterDomain":"cluster.local","clusterDNS":["10.0.128.10"],"streamingConnectionIdleTimeout":"0s","nodeStatusUpdateFrequency":"0s","nodeStatusReportFrequency":"0s","imageMinimumGCAge":"0s","imageMaximumGCAge":"0s","volumeStatsAggPeriod":"0s","cgroupsPerQOS":false,"cpuManagerReconcilePeriod":"0s","runtimeRequestTimeout":"10m0s","maxPods":250,"resolvConf":"","kubeAPIQPS":50,"kubeAPIBurst":100,"serializeImagePulls":false,"evictionHard":{"imagefs.available":"15%","nodefs.available":"10%"},"evictionPressureTransitionPeriod":"0s","featureGates":{"NodeLogQuery":true,"RotateKubeletServerCertificate":true},"memorySwap":{},"containerLogMaxSize":"50Mi","systemReserved":{"cpu":"500m","ephemeral-storage":"1Gi","memory":"2Gi"},"enforceNodeAllocatable":["none"],"logging":{"flushFrequency":"5s","verbosity":0,"options":{"text":{"infoBufferSize":"0"},"json":{"infoBufferSize":"0"}}},"enableSystemLogHandler":true,"enableSystemLogQuery":true,"shutdownGracePeriod":"0s","shutdownGracePeriodCriticalPods":"0s","crashLoopBackOff":{},"registerWithTaints":[{"key":"os","value":"Windows","effect":"NoSchedule"}],"registerNode":true,"containerRuntimeEndpoint":"npipe://./pipe/containerd-containerd"}';

test('kubelet config: byte-exact for 10.0.128.8/24', (t) => {
  t.is(kubeletConfiguration('10.0.128.8/24'), EXPECTED);
});

test('kubelet config: bad service CIDRs are errors', (t) => {
  t.throws(() => kubeletConfiguration(''), { message: /service network "" is not a CIDR/ });
  t.throws(() => kubeletConfiguration('172.30.0.0'), { message: /"172.30.0.0" is not a CIDR/ });
});

// cluster/config_test.go GetDNS.
test('cluster DNS: the 10th address of the service network', (t) => {
  t.is(clusterDnsAddress('172.30.0.0/16'), '172.30.0.10');
  t.is(clusterDnsAddress('10.0.128.8/24'), '10.0.128.10');
  t.is(clusterDnsAddress('10.0.0.240/28'), '10.0.0.250');
  t.throws(() => clusterDnsAddress(''), { message: /not a CIDR/ });
  t.throws(() => clusterDnsAddress('invalid'), { message: /not a CIDR/ });
  t.throws(() => clusterDnsAddress('172.30.0.0/32'), { message: /too small/ });
  t.throws(() => clusterDnsAddress('10.0.0.0/29'), { message: /too small/ });
  t.throws(() => clusterDnsAddress('fd02::/112'), { message: /not IPv4/ });
});

// nodeconfig_test.go newKubeconfigFromSecret(secret, "kubelet"), server "".
test('bootstrap kubeconfig: empty secret values', (t) => {
  t.is(
    bootstrapKubeconfig({ 'ca.crt': Buffer.from(''), token: Buffer.from('') }, ''),
    '{"clusters":[{"name":"local","cluster":{"server":""}}],"users":[{"name":"kubelet","user":{}}],"contexts":[{"name":"kubelet","context":{"cluster":"local","user":"kubelet"}}],"current-context":"kubelet"}',
  );
});

test('bootstrap kubeconfig: real data inlines the CA as base64 and the token', (t) => {
  const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  t.is(
    bootstrapKubeconfig({ 'ca.crt': ca, token: Buffer.from('abc.def') }, 'https://api-int.example.com:6443'),
    `{"clusters":[{"name":"local","cluster":{"server":"https://api-int.example.com:6443","certificate-authority-data":"${ca.toString('base64')}"}}],"users":[{"name":"kubelet","user":{"token":"abc.def"}}],"contexts":[{"name":"kubelet","context":{"cluster":"local","user":"kubelet"}}],"current-context":"kubelet"}`,
  );
});

test('bootstrap kubeconfig: missing keys are errors', (t) => {
  t.throws(() => bootstrapKubeconfig({ token: Buffer.from('x') }, ''), { message: /no ca\.crt/ });
  t.throws(() => bootstrapKubeconfig({ 'ca.crt': Buffer.from('x') }, ''), { message: /no token/ });
});
