import type { StoreEvent } from '../apiserver/event-log.js';
import { clone, deepEqual, isObject, meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import { StoreEventController } from '../cluster/controller.js';
import { deletePolicyOf, machinesToDelete } from './delete-policy.js';
import {
  controllerUid,
  deleting,
  labels,
  machineSetType,
  machineType,
  nameOf,
  namespaceOf,
  nodeRefName,
  obj,
} from './machine-objects.js';

const WATCHED = new Set([
  'machine.openshift.io/v1beta1/machinesets',
  'machine.openshift.io/v1beta1/machines',
  '/v1/nodes',
]);

function replicasOf(ms: JsonObject): number {
  const r = obj(ms['spec'])['replicas'];
  return typeof r === 'number' && r >= 0 ? r : 1;
}

function generationOf(ms: JsonObject): number {
  const g = meta(ms)['generation'];
  return typeof g === 'number' ? g : 1;
}

function selected(ms: JsonObject, m: JsonObject): boolean {
  const want = strMap(obj(obj(ms['spec'])['selector'])['matchLabels']);
  const have = labels(m);
  return Object.entries(want).every(([k, v]) => have[k] === v);
}

/**
 * machine-api's MachineSet controller: keeps `spec.replicas` Machines from the template (named
 * `<machineset>-<5 random chars>` through generateName, controller-owned by the MachineSet), deletes
 * the surplus by `spec.deletePolicy`, and reports replicas, ready and available Machines in status.
 */
export class MachineSetController extends StoreEventController {
  readonly name = 'machineset-controller';

  protected handle(e: StoreEvent): void {
    if (!WATCHED.has(e.typeKey)) return;
    for (const ms of this.writer.store.all(machineSetType(this.writer))) {
      if (!deleting(ms)) this.reconcile(ms);
    }
  }

  private owned(ms: JsonObject): JsonObject[] {
    const uid = str(meta(ms)['uid']);
    return this.writer.store
      .all(machineType(this.writer))
      .filter((m) => namespaceOf(m) === namespaceOf(ms) && controllerUid(m) === uid && selected(ms, m));
  }

  private reconcile(ms: JsonObject): void {
    const active = this.owned(ms).filter((m) => !deleting(m));
    const diff = replicasOf(ms) - active.length;
    for (let i = 0; i < diff; i++) this.createMachine(ms);
    if (diff < 0) {
      for (const m of machinesToDelete(active, -diff, deletePolicyOf(ms)))
        this.writer.delete(machineType(this.writer), namespaceOf(m), nameOf(m));
    }
    this.writeStatus(ms);
  }

  private createMachine(ms: JsonObject): void {
    const template = obj(obj(ms['spec'])['template']);
    const tm = obj(template['metadata']);
    const m = meta(ms);
    const body: JsonObject = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: {
        generateName: `${nameOf(ms)}-`,
        namespace: namespaceOf(ms),
        labels: { ...strMap(tm['labels']) },
        annotations: { ...strMap(tm['annotations']) },
        ownerReferences: [
          {
            apiVersion: 'machine.openshift.io/v1beta1',
            kind: 'MachineSet',
            name: nameOf(ms),
            uid: str(m['uid']) ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: clone(obj(template['spec'])),
    };
    this.writer.create(machineType(this.writer), namespaceOf(ms), body);
  }

  private nodeReady(name: string | undefined): boolean {
    if (name === undefined) return false;
    const node = this.writer.store.get(this.writer.registry.mustFind('', 'v1', 'nodes'), undefined, name);
    const conds = obj(node?.['status'])['conditions'];
    return (Array.isArray(conds) ? conds.filter(isObject) : []).some(
      (c) => c['type'] === 'Ready' && c['status'] === 'True',
    );
  }

  private writeStatus(ms: JsonObject): void {
    const machines = this.owned(ms);
    const ready = machines.filter((m) => this.nodeReady(nodeRefName(m))).length;
    const status: JsonObject = {
      replicas: machines.length,
      fullyLabeledReplicas: machines.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: generationOf(ms),
    };
    const current = this.writer.store.get(machineSetType(this.writer), namespaceOf(ms), nameOf(ms));
    if (!current || deepEqual({ ...obj(current['status']), ...status }, obj(current['status']))) return;
    this.writer.update(
      {
        type: machineSetType(this.writer),
        namespace: namespaceOf(ms),
        name: nameOf(ms),
        subresource: 'status',
      },
      { ...current, status: { ...obj(current['status']), ...status } },
    );
  }
}
