import { isObject, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { obj } from './machine-objects.js';

/**
 * Address types each actuator reports besides the guest's IPv4 (InternalIP): vSphere's reconcileNetwork
 * adds the VM name as InternalDNS only; the others here add it as InternalDNS and Hostname.
 */
const NAME_ADDRESS_TYPES: Readonly<Record<string, readonly string[]>> = {
  VSphere: ['InternalDNS'],
};

/** The status an actuator writes once the VM exists: its IPv4 and the VM (Machine) name. */
export function machineStatusFor(platform: string, machineName: string, address: string): JsonObject {
  const kinds = NAME_ADDRESS_TYPES[platform] ?? ['InternalDNS', 'Hostname'];
  return {
    phase: 'Provisioned',
    addresses: [{ type: 'InternalIP', address }, ...kinds.map((type) => ({ type, address: machineName }))],
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
