// @wmco/sim: the simulated world (API server, cluster controllers, Windows hosts over SSH).
export { SimApiServer, type SimApiServerOptions, type SimUser } from './apiserver/api-server.js';
export { ClusterCa, type KeyAndCert } from './apiserver/pki.js';
export { createCsr, type CsrInput } from './apiserver/x509.js';
export { Faults, type RequestMatcher } from './apiserver/faults.js';
export { RequestLog, type LoggedRequest } from './apiserver/request-log.js';
export { renderKubeconfig, type KubeconfigInput } from './apiserver/kubeconfig.js';
export { ApiError } from './apiserver/status.js';
export { PodLogs, type ContainerLog } from './apiserver/pod-logs.js';
export { ContainerLogBuffer } from './apiserver/container-log-buffer.js';
export type { RequestUser } from './apiserver/request-user.js';
export type { ResourceType } from './apiserver/resource-type.js';
export {
  startSimCluster,
  OPERATOR_NAMESPACE,
  OPERATOR_SERVICE_ACCOUNT,
  type SimCluster,
  type SimClusterOptions,
} from './cluster/sim-cluster.js';
export { HYBRID_SUBNET_ANNOTATION, HybridOverlayAnnotator } from './cluster/hybrid-overlay.js';
export {
  CredentialsMinter,
  CREDENTIALS_REQUEST_LABEL,
  type CloudMint,
} from './cluster/credentials-minter.js';
export { SERVING_CERT_ANNOTATIONS, ServiceCaController } from './cluster/service-ca.js';
export { startBareCluster, type BareCluster } from './cluster/bare-cluster.js';
export { attachSeed, type AttachSeed, type AttachSeedInput } from './cluster/attach-seed.js';
export { formatCidr, nthSubnet, parseCidr, type Cidr } from './cluster/ipv4.js';
export * from './windows/index.js';
export { ensureKubectl, Kubectl, type KubectlResult } from './scenario/kubectl-runner.js';
export * from './cloud/index.js';
export { readTar, readTarGz, tarOf, tarGzOf } from './payload/tar-gz.js';
export {
  realisticPayload,
  realisticContent,
  UPSTREAM_PAYLOAD_FILES,
  type GeneratedPayload,
  type PayloadFileInfo,
} from './payload/realistic-payload.js';
export { payloadVariant } from './payload/payload-variant.js';
export { EXPORTER_WEB_CONFIG, POWERSHELL_STAND_INS, payloadText } from './payload/payload-text-files.js';
export {
  kubeletImage,
  peWithVersion,
  SIM_KUBELET_VERSION,
  type PeVersionSpec,
} from './payload/pe-version-image.js';
export { rawThroughput } from './bench/raw-throughput.js';
export { workerAddresses } from './testing/worker-octet.js';
export type { BenchFile } from './bench/payload-files.js';
export { MachineActuator } from './machines/machine-actuator.js';
export { MachineApprover } from './machines/machine-approver.js';
export { MachineSetController } from './machines/machine-set-controller.js';
export {
  SimInstanceLauncher,
  type MachineInstance,
  type MachineInstanceLauncher,
  type MachineInstanceRequest,
  type SimInstanceLauncherOptions,
} from './machines/machine-instances.js';
export { bootFromUserData, type BootOutcome } from './machines/user-data-boot.js';
export {
  CLUSTER_ID_LABEL,
  type CloudVm,
  type CloudVmRequest,
  type MachineAddress,
  type MachineCloud,
} from './machines/clouds/machine-cloud.js';
export { Ec2MachineCloud } from './machines/clouds/ec2-machine-cloud.js';
export { ArmMachineCloud } from './machines/clouds/arm-machine-cloud.js';
export { GceMachineCloud, removePowershellTags } from './machines/clouds/gce-machine-cloud.js';
export { KubeVirtMachineCloud, interfaceAddresses } from './machines/clouds/kubevirt-machine-cloud.js';
export { KUBEVIRT_CRDS } from './cluster/kubevirt-crds.js';
export { machinesToDelete, type DeletePolicy } from './machines/delete-policy.js';
