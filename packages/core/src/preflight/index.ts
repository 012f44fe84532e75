// wmco preflight: checks a BYOH host before it is added to windows-instances.
export * from './finding.js';
export * from './preflight-options.js';
export { checkShell, checkContainers, checkDisk } from './basic-host-checks.js';
export { checkOsBuild } from './os-build-check.js';
export { checkHostname, suggestHostname } from './hostname-check.js';
export { checkFirewall, firewallPortsToCheck } from './firewall-check.js';
export { checkHost } from './check-host.js';
export { reachabilityFinding, sshFinding, isConnectError } from './connection-findings.js';
export { tcpProbe, type TcpProbe } from './tcp-probe.js';
export { checkAddress } from './address-check.js';
export { openSession, preflightQuery, type SessionTarget } from './host-session.js';
export {
  runPreflight,
  type PreflightInput,
  type PreflightPorts,
  type PreflightReport,
} from './run-preflight.js';
export { checkCloud, type CloudCheckInput } from './cloud-check.js';
export {
  runHostcheck,
  hostcheckQuery,
  REAL_HOSTCHECK_PORTS,
  type HostcheckTarget,
  type HostcheckPorts,
  type HostcheckResult,
} from './hostcheck.js';
