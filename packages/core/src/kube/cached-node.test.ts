import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { cachedNode } from './cached-node.js';
import { isNodeReady, nodeInternalIp } from '../lifecycle/node-ops.js';

const node: V1Node = {
  metadata: { name: 'win-a', labels: { 'kubernetes.io/os': 'windows' }, annotations: { a: 'b' } },
  spec: { unschedulable: true, taints: [{ key: 'k', effect: 'NoSchedule' }] },
  status: {
    addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: new Date(0),
        lastTransitionTime: new Date(1000),
      },
      { type: 'MemoryPressure', status: 'False', lastTransitionTime: new Date(500) },
    ],
    images: [{ names: ['mcr.microsoft.com/windows/servercore:ltsc2022'], sizeBytes: 5e9 }],
    capacity: { cpu: '4' },
    allocatable: { cpu: '3500m' },
    nodeInfo: {
      machineID: 'm',
      systemUUID: '',
      bootID: '',
      kernelVersion: '10.0.20348.0',
      osImage: 'Windows Server 2022 Datacenter',
      containerRuntimeVersion: 'containerd://1.7.27',
      kubeletVersion: 'v1.33.0',
      kubeProxyVersion: '',
      operatingSystem: 'windows',
      architecture: 'amd64',
    },
  },
};

test('a cached Node keeps metadata, spec, addresses, conditions and when Ready changed, not images, capacity, node info or heartbeats', (t) => {
  const kept = cachedNode(node);
  t.deepEqual(kept, {
    metadata: node.metadata,
    spec: node.spec,
    status: {
      addresses: node.status!.addresses,
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: new Date(1000) },
        { type: 'MemoryPressure', status: 'False' },
      ],
    },
  });
  t.true(isNodeReady(kept));
  t.is(nodeInternalIp(kept), '10.0.0.5');
  t.deepEqual(cachedNode({ metadata: { name: 'x' } }), { metadata: { name: 'x' } });
});
