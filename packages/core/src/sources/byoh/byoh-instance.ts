import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../../desired/windows-instances.js';
import { instanceRef } from '../../identity/instance-ref.js';
import { decideNodeName } from '../../identity/name-decision.js';
import { claimNode } from '../../identity/node-claim.js';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { ownedBy } from '../../identity/node-ownership.js';
import type { JoinDeps } from '../../lifecycle/join-deps.js';
import type { JoiningInstance, SourceInstance } from '../../lifecycle/node-source.js';
import { readNode } from '../../lifecycle/node-ops.js';
import { RECORDS_NAMESPACE_ANNOTATION } from '../../identity/records-namespace.js';
import { informedNodes, reportUntrustedClaims } from './untrusted-claims.js';
import { byohSource, type ListedSource } from './listed-source.js';

/**
 * A `windows-instances` entry (or a host of an embedder's listed source) as the shared flows see it
 * (node-source.ts): its Node carries the entry's address in the instance-address annotation, its status
 * is kept under its IPv4 address with its source's id, its events go on the `windows-instances` ConfigMap
 * (or the object the embedder's list names).
 */
export function byohSourceInstance(
  namespace: string,
  instance: Pick<WindowsInstance, 'address' | 'ipv4Address'>,
  source: ListedSource = byohSource(),
): SourceInstance {
  return {
    owner: instance.address,
    owns: (node) => ownedBy(node, instance.address),
    status: { key: instance.ipv4Address, extra: { source: source.id } },
    eventTarget: source.eventTarget(namespace, instance.address),
  };
}

/**
 * A listed host's join: names registered with the operator's CSR approver (ADR 0008), the record written
 * under its source's record source.
 */
export function byohJoiningInstance(
  deps: JoinDeps,
  instance: WindowsInstance,
  source: ListedSource = byohSource(),
  /** The Windows nodes the caller watches: the join lists only the others when it looks for claimants. */
  windowsNodes?: () => readonly V1Node[],
): JoiningInstance {
  const ref = instanceRef(instance);
  // The node the operator's own record of this entry names, at this address: never the Node's annotation.
  const recorded = deps.records.get(source.record, instance.address);
  const recordedNode = recorded?.address === instance.ipv4Address ? recorded.nodeName : undefined;
  return {
    ...byohSourceInstance(deps.namespace, instance, source),
    labels: { [Labels.byoh]: 'true', [Labels.workerRole]: '' },
    annotations: {
      [Annotations.instanceAddress]: instance.address,
      // Which controller joined it, when several share the cluster (records-namespace.ts).
      [RECORDS_NAMESPACE_ANNOTATION]: deps.namespace,
    },
    record: {
      source: source.record,
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
      const nodes = windowsNodes ? informedNodes(deps.core, windowsNodes) : undefined;
      await reportUntrustedClaims(deps, instance, registration.nodeName, nodes);
      return registration.nodeName;
    },
    claim: (node) => claimNode({ core: deps.core, registrations: deps.names, recordedNode }, ref, node),
    end: () => deps.names.end(instance.address),
  };
}
