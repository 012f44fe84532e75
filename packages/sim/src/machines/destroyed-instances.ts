import { isObject, meta, str, type JsonObject } from '../apiserver/json.js';
import { obj } from './machine-objects.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';

/** The InternalIP a Node reports, if any. */
function internalIp(node: JsonObject): string | undefined {
  const list = obj(node['status'])['addresses'];
  const found = (Array.isArray(list) ? list.filter(isObject) : []).find((a) => a['type'] === 'InternalIP');
  return found ? str(found['address']) : undefined;
}

/**
 * The addresses of Machine VMs the actuator destroyed, standing for the cloud node lifecycle controller
 * (cloud-provider's `node_lifecycle_controller.go`): a Node whose instance the cloud reports gone is
 * deleted. A kubelet whose registration was in flight while its VM was destroyed can create its Node
 * after machine-api looked for it; this deletes such a Node as soon as it appears (the real controller
 * finds it at its next monitor period). An address a new VM takes is no longer gone.
 */
export class DestroyedInstances {
  private readonly gone = new Set<string>();

  constructor(private readonly writer: ObjectWriter) {}

  destroyed(address: string): void {
    this.gone.add(address);
  }

  /** A VM now has this address: a Node at it is that VM's. */
  launched(address: string): void {
    this.gone.delete(address);
  }

  /** Deletes `node` when its InternalIP is a destroyed VM's; true when it did. */
  reap(node: JsonObject): boolean {
    const ip = internalIp(node);
    const name = str(meta(node)['name']);
    if (ip === undefined || name === undefined || !this.gone.has(ip)) return false;
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    if (!this.writer.store.get(nodeType, undefined, name)) return false;
    this.writer.delete(nodeType, undefined, name);
    return true;
  }
}
