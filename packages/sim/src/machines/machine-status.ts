import { isObject, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { obj } from './machine-objects.js';

/**
 * The status a vSphere or Nutanix actuator writes once the VM exists: the guest's IPv4 as InternalIP
 * and the VM (Machine) name as InternalDNS and Hostname.
 */
export function machineStatusFor(machineName: string, address: string, phase: string): JsonObject {
  return {
    phase,
    addresses: [
      { type: 'InternalIP', address },
      { type: 'InternalDNS', address: machineName },
      { type: 'Hostname', address: machineName },
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
