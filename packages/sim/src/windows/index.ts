export { SimulatedWindowsHost, type SimulatedWindowsHostOptions } from './simulated-windows-host.js';
export { WindowsModel, type WindowsModelOptions } from './windows-model.js';
export type { HostInvocation } from './host-shell.js';
export { FileSystem } from './file-system.js';
export { OPERATOR_SECURITY, Rights, Sid, type FolderAce, type FolderSecurity } from './folder-security.js';
export { folderProblem, formatFolderProblem, type FolderProblem } from './folder-check.js';
export { ServiceControlManager, type ScmEvent, type ServiceRecord } from './service-control-manager.js';
export {
  ServiceBehaviourRegistry,
  defaultServiceBehaviours,
  binaryExists,
  requiresFlagFiles,
  hybridOverlay,
  type ServiceBehaviour,
  type ServiceRun,
  type ServiceStartContext,
} from './service-behaviour.js';
export { DEFAULT_HOST_COSTS, FREE_HOST_COSTS, type HostCosts, type HostFaults } from './host-costs.js';
export { SILENT_POINTS, isSilentAt, type SilenceFaults, type SilentPoint } from './host-faults.js';
export { splitCommandLine, flagValue } from './command-line.js';
export { generateEd25519KeyPair, sshFingerprint } from './ssh-auth.js';
export { knowPayloadFiles } from './known-payload.js';
export { kubeletBehaviour, type KubeletBehaviourOptions } from './kubelet/kubelet-behaviour.js';
export { kubeletStatus, type KubeletPhase, type KubeletStatus } from './kubelet/kubelet-status.js';
export { parseKubeletFlags, stripLogRunner, type KubeletFlags } from './kubelet/kubelet-flags.js';
export {
  EvaluatorRegistry,
  type Cmdlet,
  type ExactScript,
  type ScriptFile,
} from './evaluate/evaluator-registry.js';
export { defaultEvaluators } from './evaluate/default-evaluators.js';
export { PowerShellError, UnsupportedScriptError, notRecognized } from './evaluate/script-errors.js';
export { VSPHERE_FQDN_SCRIPT, gcpNodeNameOf } from './evaluate/host-scripts.js';
export { type ModelHnsNetwork, type ModelHnsEndpoint } from './windows-model.js';
export { RootCertificateStore, MANAGED_CERTIFICATE_NAME } from './root-certificate-store.js';
export { windowsExporter, EXPORTER_PORT, type ServiceListener } from './windows-exporter.js';
export { cloudNodeManager, cloudNodeManagerLastError, UNINITIALIZED_TAINT } from './cloud-node-manager.js';
export { PowerShellEngine, type PowerShellEngineOptions } from './pwsh/powershell-engine.js';
export { DiskFileSystem } from './pwsh/disk-file-system.js';
