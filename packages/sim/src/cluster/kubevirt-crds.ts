import type { JsonObject } from '../apiserver/json.js';
import { arr, bool, conditions, crd, obj, open, str, strMap } from './schema-kit.js';

/**
 * kubevirt.io/v1 VirtualMachine and VirtualMachineInstance, as installing KubeVirt / OpenShift
 * Virtualization serves them, with the fields the simulated machine-api provider writes and reads;
 * the VM template's domain, volumes and networks stay open (preserved unknown fields).
 */
const KUBEVIRT = 'kubevirt.io';

const vmiSpec = obj({ domain: open, volumes: arr(open), networks: arr(open), hostname: str });

/** VirtualMachineInstanceNetworkInterface: `ipAddress` is always the first of `ipAddresses`. */
const vmiInterface = obj({
  name: str,
  interfaceName: str,
  ipAddress: str,
  ipAddresses: arr(str),
  mac: str,
  infoSource: str,
  linkState: str,
});

const virtualMachine = crd({
  group: KUBEVIRT,
  version: 'v1',
  kind: 'VirtualMachine',
  plural: 'virtualmachines',
  namespaced: true,
  shortNames: ['vm', 'vms'],
  spec: obj({
    runStrategy: str,
    template: obj({ metadata: obj({ labels: strMap, annotations: strMap }), spec: vmiSpec }),
  }),
  status: obj({ created: bool, ready: bool, printableStatus: str, conditions }),
});

const virtualMachineInstance = crd({
  group: KUBEVIRT,
  version: 'v1',
  kind: 'VirtualMachineInstance',
  plural: 'virtualmachineinstances',
  namespaced: true,
  shortNames: ['vmi', 'vmis'],
  columns: [
    ['Phase', '.status.phase'],
    ['IP', '.status.interfaces[0].ipAddress'],
    ['NodeName', '.status.nodeName'],
  ],
  spec: vmiSpec,
  status: obj({ phase: str, nodeName: str, interfaces: arr(vmiInterface), conditions, guestOSInfo: open }),
});

export const KUBEVIRT_CRDS: readonly JsonObject[] = [virtualMachine, virtualMachineInstance];
