import type { SimCloudInstance } from '../cloud-instance.js';
import { GceState, type GceOperation } from './gce-state.js';

/**
 * The metadata key machine-api-provider-gcp stores a Windows Machine's user data under (its reconciler's
 * `windowsScriptMetadataKey`); GCE's Windows agent runs it at first boot, during sysprep's specialize pass.
 */
export const GCE_WINDOWS_SCRIPT_KEY = 'sysprep-specialize-script-ps1';

/** Builds compute v1 JSON with self-links under the simulated endpoint. */
export class GceJson {
  constructor(
    private readonly base: string,
    private readonly state: GceState,
  ) {}

  projectUrl(): string {
    return `${this.base}/compute/v1/projects/${this.state.project}`;
  }

  zoneUrl(zone: string): string {
    return `${this.projectUrl()}/zones/${zone}`;
  }

  instanceUrl(i: SimCloudInstance): string {
    return `${this.zoneUrl(i.zone)}/instances/${i.name}`;
  }

  instance(i: SimCloudInstance): Record<string, unknown> {
    return {
      kind: 'compute#instance',
      id: i.id,
      name: i.name,
      zone: this.zoneUrl(i.zone),
      status: 'RUNNING',
      machineType: `${this.zoneUrl(i.zone)}/machineTypes/n2-standard-4`,
      networkInterfaces: [
        {
          kind: 'compute#networkInterface',
          name: 'nic0',
          network: `${this.projectUrl()}/global/networks/${i.network}`,
          networkIP: i.privateIp,
        },
      ],
      tags: { items: [...i.groups], fingerprint: 'c2ltdGFncw==' },
      labels: i.tagRecord(),
      metadata: {
        kind: 'compute#metadata',
        items: i.userData === undefined ? [] : [{ key: GCE_WINDOWS_SCRIPT_KEY, value: i.userData }],
      },
      labelFingerprint: GceState.fingerprint(i),
      selfLink: this.instanceUrl(i),
    };
  }

  operation(op: GceOperation): Record<string, unknown> {
    return {
      kind: 'compute#operation',
      id: op.id,
      name: op.name,
      zone: this.zoneUrl(op.zone),
      operationType: op.operationType,
      targetLink: op.targetLink,
      targetId: op.targetId,
      status: op.done ? 'DONE' : 'RUNNING',
      progress: op.done ? 100 : 0,
      insertTime: op.insertTime,
      startTime: op.insertTime,
      ...(op.done ? { endTime: new Date().toISOString() } : {}),
      selfLink: `${this.zoneUrl(op.zone)}/operations/${op.name}`,
    };
  }
}
