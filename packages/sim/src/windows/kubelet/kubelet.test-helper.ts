import * as k8s from '@kubernetes/client-node';
import { bootstrapKubeconfig } from '@wmco/core/internal';
import { buildWindowsServices, kubeletConfiguration } from '@wmco/core';
import type { SimCluster } from '../../cluster/sim-cluster.js';
import { waitFor as pollUntil } from '../../scenario/scenario-env.js';
import { defaultServiceBehaviours, type ServiceBehaviourRegistry } from '../service-behaviour.js';
import { WindowsModel } from '../windows-model.js';

/** A kubelet behaviour with test-speed intervals. */
export const fastKubelet = (): ServiceBehaviourRegistry =>
  defaultServiceBehaviours({ heartbeatIntervalMs: 150, retryIntervalMs: 50 });

/** The scenario suite's poller, with a shorter default timeout for kubelet tests. */
export function waitFor<T>(
  what: string,
  fn: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5000,
): Promise<T> {
  return pollUntil(what, fn, timeoutMs);
}

/** The node-bootstrapper-token Secret, read as the operator does, made into the bootstrap kubeconfig. */
export async function operatorBootstrapKubeconfig(kc: k8s.KubeConfig, server: string): Promise<string> {
  const secret = await kc.makeApiClient(k8s.CoreV1Api).readNamespacedSecret({
    name: 'node-bootstrapper-token',
    namespace: 'openshift-machine-config-operator',
  });
  const data = secret.data ?? {};
  const bytes = (k: string): Uint8Array | undefined =>
    data[k] === undefined ? undefined : Buffer.from(data[k], 'base64');
  return bootstrapKubeconfig({ 'ca.crt': bytes('ca.crt'), token: bytes('token') }, server);
}

/** The kubelet service command line the operator generates, with its pre-script variables substituted. */
export function operatorKubeletCommand(server: string, nodeIp: string): string {
  const kubelet = buildWindowsServices({ apiServerInternalUrl: server, debug: false }).find(
    (s) => s.name === 'kubelet',
  );
  if (!kubelet) throw new Error('no kubelet service');
  return kubelet.command.replaceAll('NODE_IP', nodeIp);
}

export interface NodeFiles {
  readonly bootstrapKubeconfig: string;
  readonly kubeletConf?: string;
}

/** Writes what the operator puts on a host for the kubelet, and creates the service. */
export function prepareHost(m: WindowsModel, c: SimCluster, files: NodeFiles, command: string): void {
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kube-log-runner.exe', Buffer.from('runner'));
  m.files.write('C:\\k\\kubelet.exe', Buffer.from('kubelet'));
  m.files.write(
    'C:\\k\\kubelet.conf',
    Buffer.from(files.kubeletConf ?? kubeletConfiguration('172.30.0.0/16')),
  );
  m.files.write('C:\\k\\kubelet-ca.crt', Buffer.from(c.server.caPem));
  m.files.write('C:\\k\\bootstrap-kubeconfig', Buffer.from(files.bootstrapKubeconfig));
  m.scm.create({
    name: 'kubelet',
    commandLine: command,
    startType: 'auto',
    dependencies: [],
    description: '',
  });
}

/** Approves (or denies) a CSR as a cluster admin (what the operator's CSR approver does). */
export async function approve(kc: k8s.KubeConfig, name: string, type = 'Approved'): Promise<void> {
  const certs = kc.makeApiClient(k8s.CertificatesV1Api);
  const csr = await certs.readCertificateSigningRequest({ name });
  const conditions = [
    ...(csr.status?.conditions ?? []),
    { type, status: 'True', reason: 'WMCOApprove', message: `${type.toLowerCase()} by the test` },
  ];
  await certs.replaceCertificateSigningRequestApproval({
    name,
    body: { ...csr, status: { ...csr.status, conditions } },
  });
}

export const newModel = (hostname: string, ipAddress = '10.0.0.5'): WindowsModel =>
  new WindowsModel({ hostname, ipv4: ipAddress, behaviours: fastKubelet() });
