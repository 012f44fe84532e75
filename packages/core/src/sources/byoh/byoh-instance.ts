import type { WindowsInstance } from '../../desired/windows-instances.js';
import { instanceRef } from '../../identity/instance-ref.js';
import { decideNodeName } from '../../identity/name-decision.js';
import { claimNode } from '../../identity/node-claim.js';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { ownedBy } from '../../identity/node-ownership.js';
import { instancesConfigMapRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import type { JoiningInstance, SourceInstance } from '../../lifecycle/node-source.js';
import { readNode } from '../../lifecycle/node-ops.js';
import { RECORDS_NAMESPACE_ANNOTATION } from '../../identity/records-namespace.js';
import { reportUntrustedClaims } from './untrusted-claims.js';

/**
 * A `windows-instances` entry as the shared flows see it (node-source.ts): its Node carries the entry's
 * address in the instance-address annotation, its status is kept under its IPv4 address, its events go
 * on the `windows-instances` ConfigMap.
 */
export function byohSourceInstance(
  namespace: string,
  instance: Pick<WindowsInstance, 'address' | 'ipv4Address'>,
): SourceInstance {
  return {
    owner: instance.address,
    owns: (node) => ownedBy(node, instance.address),
    status: { key: instance.ipv4Address, extra: { source: 'byoh' } },
    eventTarget: instancesConfigMapRef(namespace),
  };
}

/** A `windows-instances` entry's join: names registered with the operator's CSR approver (ADR 0008). */
export function byohJoiningInstance(deps: JoinDeps, instance: WindowsInstance): JoiningInstance {
  const ref = instanceRef(instance);
  // The node the operator's own record of this entry names, at this address: never the Node's annotation.
  const recorded = deps.records.get('windows-instances', instance.address);
  const recordedNode = recorded?.address === instance.ipv4Address ? recorded.nodeName : undefined;
  return {
    ...byohSourceInstance(deps.namespace, instance),
    labels: { [Labels.byoh]: 'true', [Labels.workerRole]: '' },
    annotations: {
      [Annotations.instanceAddress]: instance.address,
      // Which controller joined it, when several share the cluster (records-namespace.ts).
      [RECORDS_NAMESPACE_ANNOTATION]: deps.namespace,
    },
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
          recordedNode,
          recordedFor: (name) => deps.records.forNode(name)?.instance,
        },
      );
      await reportUntrustedClaims(deps, instance, registration.nodeName);
      return registration.nodeName;
    },
    claim: (node) => claimNode({ core: deps.core, registrations: deps.names, recordedNode }, ref, node),
    end: () => deps.names.end(instance.address),
  };
}
