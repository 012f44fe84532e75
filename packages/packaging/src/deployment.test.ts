import test from 'ava';
import { deployDocs } from './repo-files.js';

interface Container {
  name: string;
  image: string;
  args: string[];
  env: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: unknown;
  securityContext: Record<string, unknown>;
  volumeMounts: { mountPath: string; readOnly?: boolean }[];
}

interface PodSpec {
  nodeSelector: Record<string, string>;
  priorityClassName: string;
  hostNetwork: boolean;
  dnsPolicy: string;
  tolerations: { key: string }[];
  affinity: {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: {
        podAffinityTerm: { labelSelector: { matchLabels: Record<string, string> } };
      }[];
    };
  };
  securityContext: { runAsNonRoot: boolean; runAsUser?: number; seccompProfile: { type: string } };
  containers: Container[];
}

interface Deployment {
  spec: {
    selector: { matchLabels: Record<string, string> };
    strategy: { rollingUpdate: { maxSurge: number } };
    template: { spec: PodSpec };
  };
}

function deployment(): Deployment {
  return deployDocs().find((d) => d.object['kind'] === 'Deployment')!.object as unknown as Deployment;
}
function container(): Container {
  return deployment().spec.template.spec.containers[0]!;
}

test('the operator container runs `run` from the release image with upstream environment names', (t) => {
  const c = container();
  t.is(c.image, 'quay.io/wmco-ts/operator:0.1.0');
  t.deepEqual(c.args, ['run']);
  const env = new Map(c.env.map((e) => [e.name, e]));
  t.is(env.get('WATCH_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath, 'metadata.namespace');
  t.is(env.get('POD_NAME')?.valueFrom?.fieldRef?.fieldPath, 'metadata.name');
  for (const name of ['SERVICES_LOG_FILE_SIZE', 'SERVICES_LOG_FILE_AGE', 'SERVICES_LOG_FLUSH_INTERVAL']) {
    t.is(env.get(name)?.value, '', name);
  }
});

test('probes use a named container port, the plain HTTP port 9182 (metrics are on 9183, HTTPS)', (t) => {
  const c = container();
  const ports = new Map(c.ports.map((p) => [p.name, p.containerPort]));
  t.is(c.livenessProbe.httpGet.path, '/healthz');
  t.is(c.readinessProbe.httpGet.path, '/readyz');
  t.is(ports.get(c.livenessProbe.httpGet.port), 9182);
  t.is(ports.get(c.readinessProbe.httpGet.port), 9182);
});

test('resources and security context', (t) => {
  const c = container();
  const pod = deployment().spec.template.spec;
  t.deepEqual(c.resources, {
    requests: { cpu: '20m', memory: '300Mi' },
    limits: { cpu: '200m', memory: '1Gi' },
  });
  t.deepEqual(c.securityContext, {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  t.true(pod.securityContext.runAsNonRoot);
  t.is(pod.securityContext.seccompProfile.type, 'RuntimeDefault');
  t.is(pod.securityContext.runAsUser, undefined, 'OpenShift assigns the UID');
  t.deepEqual(
    c.volumeMounts.filter((m) => m.readOnly !== true).map((m) => m.mountPath),
    ['/tmp'],
    'the only writable path on a read-only root filesystem',
  );
});

test('scheduled like upstream on control-plane nodes, and safe with two replicas', (t) => {
  const d = deployment();
  const pod = d.spec.template.spec;
  t.deepEqual(pod.nodeSelector, { 'node-role.kubernetes.io/control-plane': '' });
  t.is(pod.priorityClassName, 'system-cluster-critical');
  t.true(pod.hostNetwork);
  t.is(pod.dnsPolicy, 'ClusterFirstWithHostNet');
  const tolerated = pod.tolerations.map((x) => x.key);
  for (const key of [
    'node-role.kubernetes.io/master',
    'node.kubernetes.io/unreachable',
    'node.kubernetes.io/not-ready',
  ]) {
    t.true(tolerated.includes(key), key);
  }
  t.is(d.spec.strategy.rollingUpdate.maxSurge, 0, 'an update never needs a spare control-plane node');
  const term =
    pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]!.podAffinityTerm;
  t.deepEqual(term.labelSelector.matchLabels, d.spec.selector.matchLabels);
});

test('the namespace enables cluster monitoring and allows the host-network pod', (t) => {
  const ns = deployDocs().find((d) => d.object['kind'] === 'Namespace')!.object as {
    metadata: { name: string; labels: Record<string, string> };
  };
  t.is(ns.metadata.name, 'openshift-windows-machine-config-operator');
  t.is(ns.metadata.labels['openshift.io/cluster-monitoring'], 'true');
  t.is(ns.metadata.labels['pod-security.kubernetes.io/enforce'], 'privileged');
});

test('metrics: HTTPS port 9183 behind the metrics Service, its serving-cert Secret mounted (optional) where `wmco run` reads it', (t) => {
  const d = deployment() as unknown as {
    spec: {
      template: {
        spec: {
          containers: {
            ports: { name: string; containerPort: number }[];
            volumeMounts: { name: string; mountPath: string }[];
          }[];
          volumes: { name: string; secret?: { secretName: string; optional?: boolean } }[];
        };
      };
    };
  };
  const pod = d.spec.template.spec;
  const c = pod.containers[0]!;
  t.is(new Map(c.ports.map((p) => [p.name, p.containerPort])).get('https-metrics'), 9183);
  t.is(c.volumeMounts.find((m) => m.name === 'metrics-tls')?.mountPath, '/etc/wmco/metrics-tls');
  const secret = pod.volumes.find((v) => v.name === 'metrics-tls')?.secret;
  t.deepEqual(secret, { secretName: 'windows-machine-config-operator-metrics-tls', optional: true });
  const services = deployDocs()
    .filter((x) => x.object['kind'] === 'Service')
    .map((x) => x.object);
  const svc = services.find(
    (s) => (s['metadata'] as { name: string }).name === 'windows-machine-config-operator-metrics',
  );
  const annotations = (svc?.['metadata'] as { annotations: Record<string, string> }).annotations;
  t.is(annotations['service.beta.openshift.io/serving-cert-secret-name'], secret?.secretName);
});
