import type { SimGce } from '../../cloud/gce/sim-gce.js';
import {
  clusterIdOf,
  specMap,
  specString,
  type CloudVm,
  type CloudVmRequest,
  type MachineCloud,
} from './machine-cloud.js';

/**
 * machine-api's `windows.RemovePowershellTags`: strips `<powershell>`…`</powershell>` (and the
 * `<persist>` line after it) only when the script has both tags; anything else is kept as it is.
 */
export function removePowershellTags(script: string): string {
  const m = /^<powershell>([\s\S]*)<\/powershell>(?:\s*<persist>true<\/persist>)?\s*$/.exec(script);
  return m?.[1] ?? script;
}

/**
 * machine-api-provider-gcp against the simulated GCE: instances.insert named after the Machine in the
 * providerSpec's `zone`, a Windows Machine's user data (tags removed) under the metadata key
 * `sysprep-specialize-script-ps1`, labelled `kubernetes-io-cluster-<clusterID>: owned` plus the
 * providerSpec's `labels`; providerID `gce://<project>/<zone>/<name>`; addresses InternalIP and three
 * InternalDNS names (`<name>.<zone>.c.<project>.internal`, `<name>.c.<project>.internal`, `<name>`).
 */
export class GceMachineCloud implements MachineCloud {
  readonly platform = 'GCP';

  constructor(
    private readonly gce: SimGce,
    private readonly defaultZone: string,
  ) {}

  create(req: CloudVmRequest): CloudVm {
    const clusterId = clusterIdOf(req);
    const zone = specString(req.providerSpec, 'zone') ?? this.defaultZone;
    const project = this.gce.state.project;
    const script =
      req.userData === undefined || !req.windows ? req.userData : removePowershellTags(req.userData);
    const instance = this.gce.addInstance({
      privateIp: req.address,
      name: req.machineName,
      zone,
      tags: {
        ...specMap(req.providerSpec, 'labels'),
        ...(clusterId ? { [`kubernetes-io-cluster-${clusterId}`]: 'owned' } : {}),
      },
      ...(script === undefined ? {} : { userData: script }),
    });
    const zonal = `${instance.name}.${zone}.c.${project}.internal`;
    return {
      providerId: `gce://${project}/${zone}/${instance.name}`,
      addresses: [
        { type: 'InternalIP', address: req.address },
        { type: 'InternalDNS', address: zonal },
        { type: 'InternalDNS', address: `${instance.name}.c.${project}.internal` },
        { type: 'InternalDNS', address: instance.name },
      ],
      computerName: instance.name,
      metadataHostname: zonal,
      bootScript: script,
      metadataRoutes: [],
      terminate: () => void this.gce.state.deleteInstance(zone, instance.name),
    };
  }
}
