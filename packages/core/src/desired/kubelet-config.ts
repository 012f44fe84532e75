import { clusterDnsAddress } from './cluster-dns.js';

/**
 * The kubelet's `C:\k\kubelet.conf` (reference §1.13): a KubeletConfiguration whose clusterDNS is the 10th
 * address of the service network. The bytes equal upstream's (Go's json.Marshal of the typed struct, with
 * its zero-valued durations), so key order here is deliberate.
 */
export function kubeletConfiguration(serviceCidr: string): string {
  const zero = '0s';
  const config = {
    kind: 'KubeletConfiguration',
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    syncFrequency: zero,
    fileCheckFrequency: zero,
    httpCheckFrequency: zero,
    rotateCertificates: true,
    serverTLSBootstrap: true,
    authentication: {
      x509: { clientCAFile: 'C:\\k\\kubelet-ca.crt' },
      webhook: { cacheTTL: zero },
      anonymous: { enabled: false },
    },
    authorization: { webhook: { cacheAuthorizedTTL: zero, cacheUnauthorizedTTL: zero } },
    clusterDomain: 'cluster.local',
    clusterDNS: [clusterDnsAddress(serviceCidr)],
    streamingConnectionIdleTimeout: zero,
    nodeStatusUpdateFrequency: zero,
    nodeStatusReportFrequency: zero,
    imageMinimumGCAge: zero,
    imageMaximumGCAge: zero,
    volumeStatsAggPeriod: zero,
    cgroupsPerQOS: false,
    cpuManagerReconcilePeriod: zero,
    runtimeRequestTimeout: '10m0s',
    maxPods: 250,
    resolvConf: '',
    kubeAPIQPS: 50,
    kubeAPIBurst: 100,
    serializeImagePulls: false,
    evictionHard: { 'imagefs.available': '15%', 'nodefs.available': '10%' },
    evictionPressureTransitionPeriod: zero,
    featureGates: { NodeLogQuery: true, RotateKubeletServerCertificate: true },
    memorySwap: {},
    containerLogMaxSize: '50Mi',
    systemReserved: { cpu: '500m', 'ephemeral-storage': '1Gi', memory: '2Gi' },
    enforceNodeAllocatable: ['none'],
    logging: {
      flushFrequency: '5s',
      verbosity: 0,
      options: { text: { infoBufferSize: '0' }, json: { infoBufferSize: '0' } },
    },
    enableSystemLogHandler: true,
    enableSystemLogQuery: true,
    shutdownGracePeriod: zero,
    shutdownGracePeriodCriticalPods: zero,
    crashLoopBackOff: {},
    registerWithTaints: [{ key: 'os', value: 'Windows', effect: 'NoSchedule' }],
    registerNode: true,
    containerRuntimeEndpoint: 'npipe://./pipe/containerd-containerd',
  };
  return JSON.stringify(config);
}
