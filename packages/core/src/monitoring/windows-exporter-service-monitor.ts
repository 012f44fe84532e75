/** The operator namespace label that turns cluster monitoring on (and with it the ServiceMonitor). */
export const CLUSTER_MONITORING_LABEL = 'openshift.io/cluster-monitoring';
export const SERVICE_MONITOR_NAME = 'windows-exporter';
export const MONITORING_GROUP = 'monitoring.coreos.com';

/**
 * The `windows-exporter` ServiceMonitor as upstream writes it (reference §1.16): Prometheus discovers the
 * Windows nodes through the kubelet Service's EndpointSlices in kube-system (one endpoint per node, with
 * the node's metadata attached), keeps only Windows nodes, and scrapes port 9182 over HTTPS, checking the
 * service CA's certificate for `windows-exporter.<namespace>.svc`.
 */
export function windowsExporterServiceMonitor(namespace: string): Record<string, unknown> {
  return {
    apiVersion: `${MONITORING_GROUP}/v1`,
    kind: 'ServiceMonitor',
    metadata: { name: SERVICE_MONITOR_NAME, namespace, labels: { name: SERVICE_MONITOR_NAME } },
    spec: {
      serviceDiscoveryRole: 'EndpointSlice',
      attachMetadata: { node: true },
      jobLabel: 'windows-exporter',
      namespaceSelector: { matchNames: ['kube-system'] },
      selector: { matchLabels: { 'k8s-app': 'kubelet' } },
      endpoints: [
        {
          port: 'https-metrics',
          scheme: 'https',
          path: '/metrics',
          interval: '30s',
          honorLabels: true,
          bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
          tlsConfig: {
            caFile: '/etc/prometheus/configmaps/serving-certs-ca-bundle/service-ca.crt',
            serverName: `windows-exporter.${namespace}.svc`,
          },
          relabelings: [
            {
              action: 'replace',
              sourceLabels: ['__meta_kubernetes_endpointslice_endpoint_target_name'],
              targetLabel: 'instance',
            },
            {
              action: 'keep',
              sourceLabels: ['__meta_kubernetes_node_label_kubernetes_io_os'],
              regex: 'windows',
            },
            {
              action: 'replace',
              sourceLabels: ['__address__'],
              regex: '(.+)(?::\\d+)',
              replacement: '$1:9182',
              targetLabel: '__address__',
            },
            { action: 'replace', replacement: 'windows-exporter', targetLabel: 'job' },
          ],
        },
      ],
    },
  };
}
