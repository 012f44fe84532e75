export * from './protocol/index.js';
export * from './errors.js';
export * from './windows-host.js';
export {
  InMemoryHostKeyStore,
  ReadOnlyHostKeyStore,
  HostKeyNotPinnedError,
  type HostKeyStore,
  type PinnedHostKey,
} from './host-key-store.js';
export { NamePinnedHostKeyStore } from './name-pinned-host-key-store.js';
export { forgetHostPins, isPinOf, type HostPinRemover } from './host-pins.js';
export { silentHostLogger, type HostLogger } from './host-logger.js';
export { loadHostModule, HOST_MODULE_FILE, type HostModule } from './host-module.js';
export { SshWindowsHost } from './ssh/ssh-windows-host.js';
export type { SshHostStats } from './ssh/ssh-host-stats.js';
export type { SshHostOptions } from './ssh/ssh-options.js';
export { sharedTransfers } from './ssh/ssh-options.js';
export { loadPrivateKey, type LoadedPrivateKey } from './ssh/private-key.js';
export { hostKeyFingerprint } from './ssh/host-key-verifier.js';
export { readableStderr } from './ssh/cli-xml.js';
export { findPwsh, type PwshLocation } from './pwsh/find-pwsh.js';
export {
  runPs51Gate,
  formatFindings,
  PS51_GATE_DIR,
  type GateScript,
  type GateFinding,
  type GateReport,
} from './pwsh/ps51-gate.js';
export {
  loadHostCaptureScript,
  hostCaptureInvocationScript,
  parseHostCaptureInvocation,
  parseCaptureOutput,
  CAPTURE_LINE_PREFIX,
  CAPTURE_DONE_PREFIX,
  CAPTURE_HASH_MISMATCH,
  HOST_CAPTURE_FILE,
  type CaptureItem,
  type CaptureRecord,
  type HostCaptureScript,
} from './capture/host-capture.js';
export { captureHost } from './capture/capture-session.js';
