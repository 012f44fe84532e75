import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../desired/windows-instances.js';
import type { HostState } from '../host/protocol/index.js';
import { instanceRef } from '../identity/instance-ref.js';
import { decideNodeName } from '../identity/name-decision.js';
import { claimNode } from '../identity/node-claim.js';
import type { RecordSource } from '../identity/node-record.js';
import type { ObjectRef } from '../kube/event-recorder.js';
import { Annotations, Labels } from '../identity/node-metadata.js';
import { instancesConfigMapRef, type JoinDeps } from './join-deps.js';
import type { InstanceStatus } from './instance-status.js';
import { readNode } from './node-ops.js';

/**
 * What differs between the sources of a join (BYOH entries, Machines): who decides the node name, who
 * may claim the Node, what the Node is labelled and annotated with, and where events go.
 */
export interface JoinIdentity {
  /** Where the join's progress is kept in `windows-instances-status`, and what the status says of its source. */
  readonly status: { readonly key: string; readonly extra: Partial<InstanceStatus> };
  /** The object events about this join are recorded on. */
  readonly eventTarget: ObjectRef;
  /** Rename the host to this computer name first (HostRename), rebooting; undefined: keep its name. */
  readonly hostname?: string;
  /** Labels and annotations the Node gets once claimed (besides pub-key-hash, username and host key). */
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Decides the node name after the bootstrap observe, before the kubelet starts. */
  decideName(values: Readonly<Record<string, string>>, host: HostState): Promise<string>;
  /** Which record the join writes once the Node is claimed (ADR 0035). */
  readonly record: {
    readonly source: RecordSource;
    readonly instance: string;
    readonly dnsName?: string;
  };
  /** Makes sure the registered Node is this source's before anything touches it. */
  claim(node: V1Node): Promise<void>;
  /** The join ended (joined or failed): nothing more is approved for it. */
  end(): void;
}

/** A `windows-instances` entry: names registered with the operator's CSR approver (ADR 0008). */
export function byohJoinIdentity(deps: JoinDeps, instance: WindowsInstance): JoinIdentity {
  const ref = instanceRef(instance);
  return {
    status: { key: instance.ipv4Address, extra: { source: 'byoh' } },
    eventTarget: instancesConfigMapRef(deps.namespace),
    labels: { [Labels.byoh]: 'true', [Labels.workerRole]: '' },
    annotations: { [Annotations.instanceAddress]: instance.address },
    record: {
      source: 'windows-instances',
      instance: instance.address,
      ...(ref.dnsName === undefined ? {} : { dnsName: ref.dnsName }),
    },
    async decideName(values, host): Promise<string> {
      const registration = await decideNodeName(
        ref,
        {
          hostnameOverride: values['HOSTNAME_OVERRIDE'],
          hostname: host.hostname,
          kubeletPresent: host.services.some((svc) => svc.name.toLowerCase() === 'kubelet'),
        },
        {
          registrations: deps.names,
          node: (name) => readNode(deps.core, name),
          approvedClientCsr: (name, address) => deps.names.approvedClientCsr(name, address),
        },
      );
      return registration.nodeName;
    },
    claim: (node) => claimNode(deps.core, deps.names, ref, node),
    end: () => deps.names.end(instance.address),
  };
}
