import { randomUUID } from 'node:crypto';
import type { StoreEvent } from '../apiserver/event-log.js';
import { meta, str, strList, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { StoreEventController, type ErrorSink } from '../cluster/controller.js';
import type {
  MachineInstance,
  MachineInstanceLauncher,
  MachineInstanceRequest,
} from './machine-instances.js';
import { DestroyedInstances } from './destroyed-instances.js';
import { machineStatusFor, nodeForInstance } from './machine-status.js';
import {
  MACHINE_FINALIZER,
  OS_ID_LABEL,
  deleting,
  labels,
  machineType,
  nameOf,
  namespaceOf,
  nodeRefName,
  obj,
} from './machine-objects.js';

/** provider ID schemes of the machine-api providers (none on platform None: it has no machine-api provider). */
const PROVIDER_ID_SCHEME: Readonly<Record<string, string>> = {
  VSphere: 'vsphere://',
  Nutanix: 'nutanix://',
};

/**
 * A machine-api Machine controller with its actuator: a direct one (vSphere, Nutanix; None as a
 * convenience), or, when the launcher creates instances in a simulated cloud (AWS, Azure, GCP), the
 * provider ID and addresses that cloud's provider reports. It
 * adds the Machine finalizer, creates the VM from the providerSpec's user data Secret (phase
 * Provisioning → Provisioned with provider ID and addresses), links the Node whose InternalIP is the
 * VM's (nodeRef, phase Running), and on deletion destroys the VM and deletes the Node before it
 * releases the finalizer.
 */
export class MachineActuator extends StoreEventController {
  readonly name = 'machine-actuator';
  /** VMs by Machine uid. */
  private readonly vms = new Map<string, MachineInstance>();
  private readonly launching = new Map<string, Promise<void>>();
  /** Machines whose VM the cloud refused (phase Failed): machine-api does not retry them. */
  private readonly failed = new Set<string>();
  /** Deletions under way by Machine uid: one at a time, so a second event cannot release the finalizer early. */
  private readonly removing = new Map<string, Promise<void>>();
  private readonly destroyedVms: DestroyedInstances;

  constructor(
    writer: ObjectWriter,
    onError: ErrorSink,
    private readonly platform: string,
    private readonly launcher: MachineInstanceLauncher,
  ) {
    super(writer, onError);
    this.destroyedVms = new DestroyedInstances(writer);
  }

  /** The VM behind a Machine (by namespace and name), while it exists. */
  instanceOf(namespace: string, name: string): MachineInstance | undefined {
    const m = this.writer.store.get(machineType(this.writer), namespace, name);
    return m ? this.vms.get(str(meta(m)['uid']) ?? '') : undefined;
  }

  protected async handle(e: StoreEvent): Promise<void> {
    if (e.typeKey === '/v1/nodes' && e.type !== 'DELETED' && this.destroyedVms.reap(e.object)) return;
    if (e.typeKey === '/v1/nodes' || e.typeKey === '/v1/secrets') {
      for (const m of this.writer.store.all(machineType(this.writer))) await this.reconcile(m);
      return;
    }
    if (e.typeKey !== 'machine.openshift.io/v1beta1/machines' || e.type === 'DELETED') return;
    const current = this.writer.store.get(machineType(this.writer), namespaceOf(e.object), nameOf(e.object));
    if (current) await this.reconcile(current);
  }

  private async reconcile(m: JsonObject): Promise<void> {
    const uid = str(meta(m)['uid']) ?? '';
    if (deleting(m)) return this.remove(m, uid);
    if (!strList(meta(m)['finalizers']).includes(MACHINE_FINALIZER)) {
      this.writer.mutate(this.target(m), (c) => {
        meta(c)['finalizers'] = [...strList(meta(c)['finalizers']), MACHINE_FINALIZER];
        return c;
      });
      return;
    }
    const vm = this.vms.get(uid);
    if (vm) return this.link(m, vm);
    if (this.launching.has(uid) || this.failed.has(uid)) return;
    const userData = this.userData(m);
    if (userData === 'missing-secret') {
      this.setStatus(m, { phase: 'Provisioning' });
      return;
    }
    const launch = this.launch(m, uid, userData.text).finally(() => this.launching.delete(uid));
    this.launching.set(uid, launch);
    await launch;
  }

  private target(m: JsonObject): { type: ReturnType<typeof machineType>; namespace: string; name: string } {
    return { type: machineType(this.writer), namespace: namespaceOf(m), name: nameOf(m) };
  }

  /** The user data the providerSpec names; 'missing-secret' when the Secret does not exist yet. */
  private userData(m: JsonObject): { text: string | undefined } | 'missing-secret' {
    const secretName = str(obj(obj(obj(obj(m['spec'])['providerSpec'])['value'])['userDataSecret'])['name']);
    if (secretName === undefined) return { text: undefined };
    const secret = this.writer.store.get(
      this.writer.registry.mustFind('', 'v1', 'secrets'),
      namespaceOf(m),
      secretName,
    );
    if (!secret) return 'missing-secret';
    const b64 = str(obj(secret['data'])['userData']);
    return { text: b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8') };
  }

  private async launch(m: JsonObject, uid: string, userData: string | undefined): Promise<void> {
    this.setStatus(m, { phase: 'Provisioning' });
    const vm = await this.launcher.launch(this.request(m, userData)).catch((err: unknown) => {
      this.fail(m, uid, err);
      return undefined;
    });
    if (!vm) return;
    this.vms.set(uid, vm);
    this.destroyedVms.launched(vm.address);
    const now = this.writer.store.get(machineType(this.writer), namespaceOf(m), nameOf(m));
    if (!now || str(meta(now)['uid']) !== uid || deleting(now)) {
      if (now && deleting(now)) await this.remove(now, uid);
      else await this.destroy(uid);
      return;
    }
    const providerId = vm.providerId ?? this.directProviderId();
    if (providerId !== undefined)
      this.writer.mutate(this.target(now), (c) => {
        c['spec'] = { ...obj(c['spec']), providerID: providerId };
        return c;
      });
    this.setStatus(
      now,
      vm.addresses
        ? { phase: 'Provisioned', addresses: vm.addresses.map((a) => ({ ...a })) }
        : machineStatusFor(this.platform, {
            machineName: nameOf(now),
            guestHostname: vm.hostname,
            address: vm.address,
          }),
    );
    this.link(now, vm);
  }

  private request(m: JsonObject, userData: string | undefined): MachineInstanceRequest {
    return {
      machineName: nameOf(m),
      platform: this.platform,
      userData,
      windows: labels(m)[OS_ID_LABEL] === 'Windows',
      labels: labels(m),
      providerSpec: obj(obj(obj(m['spec'])['providerSpec'])['value']),
    };
  }

  /** machine-api's answer to an invalid configuration the cloud refused: phase Failed, never retried. */
  private fail(m: JsonObject, uid: string, err: unknown): void {
    this.failed.add(uid);
    this.setStatus(m, {
      phase: 'Failed',
      errorReason: 'InvalidConfiguration',
      errorMessage: `failed to create the instance: ${err instanceof Error ? err.message : String(err)}`,
    });
  }

  /** The provider ID a directly provisioned VM gets (vSphere, Nutanix: the VM's UUID). */
  private directProviderId(): string | undefined {
    const scheme = PROVIDER_ID_SCHEME[this.platform];
    return scheme === undefined ? undefined : `${scheme}${randomUUID()}`;
  }

  /** machine-api's nodelink controller: the Node with the VM's InternalIP becomes the nodeRef. */
  private link(m: JsonObject, vm: MachineInstance): void {
    if (nodeRefName(m) !== undefined) return;
    const node = nodeForInstance(this.writer, vm.address);
    if (!node) return;
    this.setStatus(m, {
      phase: 'Running',
      nodeRef: { kind: 'Node', name: str(meta(node)['name']) ?? '', uid: str(meta(node)['uid']) ?? '' },
    });
  }

  private async destroy(uid: string): Promise<void> {
    const vm = this.vms.get(uid);
    this.vms.delete(uid);
    await vm?.stop();
    if (vm) this.destroyedVms.destroyed(vm.address);
  }

  /**
   * machine-api's delete path, once per Machine: the status write below starts another event, whose
   * remove would otherwise find the VM already taken and release the finalizer before the Node is gone.
   */
  private remove(m: JsonObject, uid: string): Promise<void> {
    const under = this.removing.get(uid);
    if (under) return under;
    const run = this.removeOnce(m, uid).finally(() => this.removing.delete(uid));
    this.removing.set(uid, run);
    return run;
  }

  private async removeOnce(m: JsonObject, uid: string): Promise<void> {
    if (!strList(meta(m)['finalizers']).includes(MACHINE_FINALIZER)) return;
    await this.launching.get(uid);
    this.failed.delete(uid);
    const vm = this.vms.get(uid);
    if (obj(m['status'])['phase'] !== 'Deleting') this.setStatus(m, { phase: 'Deleting' });
    const address = vm?.address;
    await this.destroy(uid);
    // Looked up once the VM is gone; a Node a late registration creates after this is deleted by
    // destroyedVms (the cloud node lifecycle controller's part).
    const linked = address ? nodeForInstance(this.writer, address) : undefined;
    this.deleteNode(nodeRefName(m) ?? (linked ? str(meta(linked)['name']) : undefined));
    const current = this.writer.store.get(machineType(this.writer), namespaceOf(m), nameOf(m));
    if (!current || str(meta(current)['uid']) !== uid) return;
    this.writer.mutate(this.target(current), (c) => {
      meta(c)['finalizers'] = strList(meta(c)['finalizers']).filter((f) => f !== MACHINE_FINALIZER);
      return c;
    });
  }

  private deleteNode(name: string | undefined): void {
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    if (name !== undefined && this.writer.store.get(nodeType, undefined, name))
      this.writer.delete(nodeType, undefined, name);
  }

  private setStatus(m: JsonObject, patch: JsonObject): void {
    const current = this.writer.store.get(machineType(this.writer), namespaceOf(m), nameOf(m));
    if (!current) return;
    const status = { ...obj(current['status']), ...patch, lastUpdated: new Date().toISOString() };
    const before = obj(current['status']);
    if (Object.entries(patch).every(([k, v]) => JSON.stringify(before[k]) === JSON.stringify(v))) return;
    this.writer.update({ ...this.target(current), subresource: 'status' }, { ...current, status });
  }
}
