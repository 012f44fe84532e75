/** One object of every served type that a fresh seeded cluster does not already hold, as kubectl input. */
export const NS = 'kc-suite';

export const ALL_TYPES_YAML = `
apiVersion: v1
kind: Namespace
metadata: {name: ${NS}}
---
apiVersion: v1
kind: Service
metadata: {name: svc1, namespace: ${NS}}
spec: {ports: [{port: 80, targetPort: 8080}], selector: {app: web}}
---
apiVersion: v1
kind: Endpoints
metadata: {name: svc1, namespace: ${NS}}
subsets: [{addresses: [{ip: 10.0.0.1}], ports: [{port: 8080}]}]
---
apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: ${NS}}
involvedObject: {kind: Pod, name: p, namespace: ${NS}}
reason: Tested
message: core event
type: Normal
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: ev2, namespace: ${NS}}
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: wmco.sim/test
reportingInstance: t
action: Test
reason: Tested
type: Normal
regarding: {kind: Pod, name: p, namespace: ${NS}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa1, namespace: ${NS}}
---
apiVersion: v1
kind: Secret
metadata: {name: s1, namespace: ${NS}}
stringData: {password: hunter2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm1, namespace: ${NS}, labels: {suite: kubectl}}
data: {k: v}
---
apiVersion: v1
kind: Pod
metadata: {name: pod1, namespace: ${NS}}
spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: lease1, namespace: ${NS}}
spec: {holderIdentity: me, leaseDurationSeconds: 15}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb1, namespace: ${NS}}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds1, namespace: ${NS}}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: pause}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: deploy1, namespace: ${NS}}
spec:
  replicas: 1
  selector: {matchLabels: {app: deploy}}
  template:
    metadata: {labels: {app: deploy}}
    spec: {containers: [{name: c, image: pause}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: role1, namespace: ${NS}}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb1, namespace: ${NS}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: role1}
subjects: [{kind: ServiceAccount, name: sa1, namespace: ${NS}}]
---
apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata: {name: ms1, namespace: openshift-machine-api}
spec:
  replicas: 1
  selector: {matchLabels: {machine.openshift.io/cluster-api-machineset: ms1}}
  template:
    metadata: {labels: {machine.openshift.io/cluster-api-machineset: ms1, machine.openshift.io/os-id: Windows}}
    spec: {providerSpec: {value: {apiVersion: sim/v1, kind: SimMachineProviderSpec, image: win2022}}}
---
apiVersion: machine.openshift.io/v1beta1
kind: Machine
metadata: {name: m1, namespace: openshift-machine-api, labels: {machine.openshift.io/os-id: Windows}}
spec: {providerSpec: {value: {apiVersion: sim/v1, kind: SimMachineProviderSpec, image: win2022}}}
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms1}
spec: {imageDigestMirrors: [{source: quay.io/a, mirrors: [mirror.example.com/a]}]}
---
apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata: {name: itms1}
spec: {imageTagMirrors: [{source: quay.io/b, mirrors: [mirror.example.com/b]}]}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: windows-exporter, namespace: ${NS}}
spec: {endpoints: [{port: metrics, scheme: https}], selector: {matchLabels: {name: windows-exporter}}}
---
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata: {name: windows-rules, namespace: ${NS}}
spec: {groups: [{name: windows.node.rules, rules: [{record: 'instance:node_num_cpu:sum', expr: 'count(windows_cpu_time_total)'}]}]}
---
apiVersion: cloudcredential.openshift.io/v1
kind: CredentialsRequest
metadata: {name: windows-machine-config-operator-aws, namespace: openshift-cloud-credential-operator}
spec:
  secretRef: {name: windows-machine-config-operator-cloud-credentials, namespace: ${NS}}
  providerSpec:
    apiVersion: cloudcredential.openshift.io/v1
    kind: AWSProviderSpec
    statementEntries: [{effect: Allow, action: ['ec2:DescribeInstances'], resource: '*'}]
`;

export function csrYaml(name: string, pem: string): string {
  return `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata: {name: ${name}}
spec:
  request: ${Buffer.from(pem).toString('base64')}
  signerName: kubernetes.io/kube-apiserver-client-kubelet
  usages: [digital signature, client auth]
`;
}

export const DRAIN_YAML = `
apiVersion: v1
kind: Node
metadata: {name: drain-me, labels: {kubernetes.io/os: linux}}
---
apiVersion: v1
kind: Pod
metadata:
  name: app-pod
  namespace: ${NS}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs1, uid: 00000000-0000-0000-0000-000000000001, controller: true}]
spec: {nodeName: drain-me, containers: [{name: c, image: nginx}]}
`;
