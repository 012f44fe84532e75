import { randomBytes } from 'node:crypto';
import { isObject, meta, str, type JsonObject } from '../../apiserver/json.js';
import type { ObjectWriter } from '../../apiserver/object-writer.js';
import type { ResourceType } from '../../apiserver/resource-type.js';
import { KUBEVIRT_CRDS } from '../../cluster/kubevirt-crds.js';
import {
  specObject,
  specString,
  type CloudVm,
  type CloudVmRequest,
  type MachineCloud,
} from './machine-cloud.js';

/** Where the VMs live when the providerSpec names no namespace. */
const DEFAULT_VM_NAMESPACE = 'openshift-machine-api';

/**
 * The computer name cloudbase-init's SetHostNamePlugin gives the guest at first boot: the config drive
 * metadata's hostname (KubeVirt writes the VMI's name there), cut to 15 characters as NetBIOS requires
 * (its default `netbios_host_name_compatibility`).
 */
function configDriveComputerName(vmiName: string): string {
  return vmiName.slice(0, 15);
}

/** A locally administered MAC address, as KubeVirt's bridge binding gives a VMI's interface. */
function macAddress(): string {
  const b = [...randomBytes(6)];
  b[0] = ((b[0] ?? 0) & 0xfc) | 0x02;
  return b.map((x) => x.toString(16).padStart(2, '0')).join(':');
}

/**
 * A machine-api provider for KubeVirt (as machine-api-provider-kubevirt did) against the simulated
 * API server serving kubevirt.io/v1: each Machine becomes a VirtualMachine whose template carries the
 * user data Secret in a cloudInitConfigDrive volume (cloudbase-init reads it in the guest), and a
 * running VirtualMachineInstance whose `status.interfaces[]` report the guest's address as KubeVirt
 * does (`ipAddress`, the first of `ipAddresses`). The Machine's `status.addresses` are read back from
 * that VMI status: every interface's `ipAddress` as InternalIP, and the VM name as InternalDNS. The
 * guest's computer name is the VMI's name, set by cloudbase-init from the config drive metadata.
 * `bind` installs the CRDs (as installing OpenShift Virtualization does) and must come before `create`.
 */
export class KubeVirtMachineCloud implements MachineCloud {
  readonly platform = 'KubeVirt';
  private writer: ObjectWriter | undefined;

  /** Serves kubevirt.io/v1 on the cluster and creates VMs through it from now on. */
  bind(writer: ObjectWriter): void {
    const crdType = writer.registry.mustFind('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    for (const c of KUBEVIRT_CRDS) {
      if (!writer.store.get(crdType, undefined, str(meta(c)['name']) ?? ''))
        writer.create(crdType, undefined, c);
    }
    this.writer = writer;
  }

  create(req: CloudVmRequest): CloudVm {
    const w = this.writer;
    if (!w) throw new Error('KubeVirt: the machine cloud is not bound to a cluster (bind first)');
    const namespace = specString(req.providerSpec, 'namespace') ?? DEFAULT_VM_NAMESPACE;
    const name = req.machineName;
    const vm = w.create(this.type(w, 'virtualmachines'), namespace, this.vmBody(req, name));
    this.startInstance(w, vm, req.address);
    const vmi = w.store.get(this.type(w, 'virtualmachineinstances'), namespace, name) ?? {};
    return {
      providerId: `kubevirt://${namespace}/${name}`,
      addresses: [...interfaceAddresses(vmi), { type: 'InternalDNS', address: name }],
      computerName: configDriveComputerName(name),
      bootScript: req.userData,
      metadataRoutes: [],
      terminate: () => this.remove(w, namespace, name),
    };
  }

  private type(w: ObjectWriter, plural: string): ResourceType {
    return w.registry.mustFind('kubevirt.io', 'v1', plural);
  }

  private vmBody(req: CloudVmRequest, name: string): JsonObject {
    const secret = str(specObject(req.providerSpec, 'userDataSecret')['name']);
    const volumes: JsonObject[] = [
      { name: 'rootdisk', dataVolume: { name: `${name}-rootdisk` } },
      ...(secret
        ? [{ name: 'cloudinitdisk', cloudInitConfigDrive: { userDataSecretRef: { name: secret } } }]
        : []),
    ];
    return {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name, labels: { ...req.labels } },
      spec: {
        runStrategy: 'Always',
        template: {
          metadata: { labels: { 'kubevirt.io/vm': name } },
          spec: {
            domain: { devices: { interfaces: [{ name: 'default', bridge: {} }] } },
            networks: [{ name: 'default', pod: {} }],
            volumes,
          },
        },
      },
    };
  }

  /** virt-controller's VMI for a running VM, and virt-handler's report of its interface. */
  private startInstance(w: ObjectWriter, vm: JsonObject, address: string): void {
    const namespace = str(meta(vm)['namespace']) ?? '';
    const name = str(meta(vm)['name']) ?? '';
    const t = this.type(w, 'virtualmachineinstances');
    const template = isObject(vm['spec']) && isObject(vm['spec']['template']) ? vm['spec']['template'] : {};
    const owner = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      name,
      uid: str(meta(vm)['uid']) ?? '',
      controller: true,
    };
    w.create(t, namespace, {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstance',
      metadata: { name, ownerReferences: [owner] },
      spec: isObject(template['spec']) ? template['spec'] : {},
    });
    w.mutate({ type: t, namespace, name, subresource: 'status' }, (c) => ({
      ...c,
      status: {
        phase: 'Running',
        nodeName: 'worker-0',
        interfaces: [
          {
            name: 'default',
            interfaceName: 'Ethernet',
            ipAddress: address,
            ipAddresses: [address],
            mac: macAddress(),
            infoSource: 'domain, guest-agent',
            linkState: 'up',
          },
        ],
      },
    }));
  }

  private remove(w: ObjectWriter, namespace: string, name: string): void {
    for (const plural of ['virtualmachineinstances', 'virtualmachines']) {
      const t = this.type(w, plural);
      if (w.store.get(t, namespace, name)) w.delete(t, namespace, name);
    }
  }
}

/** Machine addresses from a VMI's `status.interfaces[].ipAddress`, as the KubeVirt machine provider reads them. */
export function interfaceAddresses(vmi: JsonObject): { type: string; address: string }[] {
  const status = isObject(vmi['status']) ? vmi['status'] : {};
  const list = Array.isArray(status['interfaces']) ? status['interfaces'].filter(isObject) : [];
  return list
    .map((i) => str(i['ipAddress']))
    .filter((a): a is string => a !== undefined && a !== '')
    .map((address) => ({ type: 'InternalIP', address }));
}
