import type { JsonObject } from '../apiserver/json.js';
import { arr, conditions, crd, int, obj, open, str, strMap } from './schema-kit.js';

/** machine.openshift.io/v1beta1 Machine and MachineSet, with the fields WMCO and the machine API use. */
const MACHINE = 'machine.openshift.io';

const objectMetaTemplate = obj({
  labels: strMap,
  annotations: strMap,
  name: str,
  namespace: str,
  generateName: str,
});
const taints = arr(obj({ key: str, value: str, effect: str, timeAdded: str }));

const machineSpec = obj({
  metadata: objectMetaTemplate,
  providerID: str,
  providerSpec: obj({ value: { ...open, 'x-kubernetes-embedded-resource': true } }),
  taints,
  lifecycleHooks: open,
  authoritativeAPI: str,
});

const machine = crd({
  group: MACHINE,
  version: 'v1beta1',
  kind: 'Machine',
  plural: 'machines',
  namespaced: true,
  columns: [
    ['Phase', '.status.phase'],
    ['Node', '.status.nodeRef.name', 'string', 1],
    ['ProviderID', '.spec.providerID', 'string', 1],
  ],
  spec: machineSpec,
  status: obj({
    addresses: arr(obj({ address: str, type: str })),
    nodeRef: obj({ apiVersion: str, kind: str, name: str, namespace: str, uid: str }),
    phase: str,
    errorReason: str,
    errorMessage: str,
    lastUpdated: str,
    providerStatus: open,
    lastOperation: open,
    conditions,
    authoritativeAPI: str,
  }),
});

const machineSet = crd({
  group: MACHINE,
  version: 'v1beta1',
  kind: 'MachineSet',
  plural: 'machinesets',
  namespaced: true,
  // As openshift/api's MachineSet: `kubectl scale` and MachineAutoscalers go through this subresource.
  // Its status has no labelSelector field, so the Scale's status.selector stays empty, as on OpenShift.
  scale: {
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.replicas',
    labelSelectorPath: '.status.labelSelector',
  },
  columns: [
    ['Desired', '.spec.replicas', 'integer'],
    ['Current', '.status.replicas', 'integer'],
    ['Ready', '.status.readyReplicas', 'integer'],
    ['Available', '.status.availableReplicas', 'integer'],
  ],
  spec: obj({
    replicas: int,
    minReadySeconds: int,
    deletePolicy: str,
    selector: open,
    template: obj({ metadata: objectMetaTemplate, spec: machineSpec }),
    authoritativeAPI: str,
  }),
  status: obj({
    replicas: int,
    fullyLabeledReplicas: int,
    readyReplicas: int,
    availableReplicas: int,
    observedGeneration: int,
    errorReason: str,
    errorMessage: str,
    conditions,
  }),
});

export const MACHINE_API_CRDS: readonly JsonObject[] = [machine, machineSet];
