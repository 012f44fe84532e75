export {
  EMBEDDED_VERSION,
  WINDOWS_HOSTS_SOURCE,
  startEmbeddedController,
  type EmbeddedController,
  type EmbeddedControllerOptions,
} from './embedded-controller.js';
export { lineLogger } from './line-logger.js';
export { WindowsHostList } from './windows-host-list.js';
export {
  hostsByAddress,
  leavingHosts,
  WINDOWS_HOST_FINALIZER,
  WINDOWS_HOST_API,
  type WindowsHost,
  type WindowsHostStatus,
} from './windows-host.js';
export { WINDOWS_HOST_CRD_FILE } from './windows-host-crd.js';
