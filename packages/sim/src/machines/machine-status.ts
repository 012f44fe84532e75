import { isObject, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { obj } from './machine-objects.js';

/**
 * The names each actuator reports besides the guest's IPv4 (InternalIP): vSphere's reconcileNetwork adds
 * the VM (Machine) name as InternalDNS only; Nutanix the VM name as InternalDNS and Hostname. Elsewhere
 * (None, a convenience with no machine-api provider upstream) the guest's own host name is reported.
 */
const NAMES: Readonly<Record<string, { readonly types: readonly string[]; readonly vmName: boolean }>> = {
  VSphere: { types: ['InternalDNS'], vmName: true },
  Nutanix: { types: ['InternalDNS', 'Hostname'], vmName: true },
};
const GUEST_NAMES = { types: ['InternalDNS', 'Hostname'], vmName: false };

/** The status an actuator writes once the VM exists: its IPv4 and its name. */
export function machineStatusFor(
  platform: string,
  vm: { machineName: string; guestHostname: string; address: string },
): JsonObject {
  const names = NAMES[platform] ?? GUEST_NAMES;
  const name = names.vmName ? vm.machineName : vm.guestHostname.toLowerCase();
  return {
    phase: 'Provisioned',
    addresses: [
      { type: 'InternalIP', address: vm.address },
      ...names.types.map((type) => ({ type, address: name })),
    ],
  };
}

/** The Node reporting `address` as an InternalIP (how the nodelink controller matches without provider IDs). */
export function nodeForInstance(w: ObjectWriter, address: string): JsonObject | undefined {
  return w.store.all(w.registry.mustFind('', 'v1', 'nodes')).find((n) => {
    const list = obj(n['status'])['addresses'];
    return (Array.isArray(list) ? list.filter(isObject) : []).some(
      (a) => a['type'] === 'InternalIP' && a['address'] === address,
    );
  });
}
