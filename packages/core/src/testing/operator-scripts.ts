import { coreServices } from '../desired/core-services.js';
import { networkConfigScript } from '../desired/network-script.js';
import { buildUserData } from '../desired/user-data.js';
import { parseAuthorizedKey } from '../desired/authorized-key.js';
import type { HostnameOverride } from '../provider/capabilities/hostname-override.js';
import type { UserDataFormat } from '../provider/capabilities/user-data-format.js';
import { loadHostModule } from '../host/host-module.js';
import { hostInstallInvocationScript } from '../host/protocol/install-invocation.js';
import { hostInvocationScript } from '../host/protocol/invocation.js';
import { hostSessionScript } from '../host/protocol/session-invocation.js';
import { hostCaptureInvocationScript, loadHostCaptureScript } from '../host/capture/host-capture.js';
import type { GateScript } from '../host/pwsh/ps51-gate.js';

/** What one provider contributes to the scripts a host runs. */
export interface ProviderScripts {
  readonly id: string;
  readonly userDataFormat?: UserDataFormat | undefined;
  readonly hostnameOverride?: HostnameOverride | undefined;
}

const SAMPLE_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq4Dq4E1P8e3X2v6mT0Qe3bq7m2y3L0mJx0m0xk8x1W wmco';

/** The PowerShell inside a user-data document: between `<powershell>` tags when it has them, else all. */
export function userDataPowerShell(userData: string): string {
  const m = /<powershell>([\s\S]*?)<\/powershell>/.exec(userData);
  return m?.[1] ?? userData;
}

/** Every pre-script of the core services, with the platform's hostname command where it has one. */
function preScripts(hostnameCommand: string | undefined, id: string): GateScript[] {
  const services = coreServices({
    apiServerInternalUrl: 'https://api-int.example.com:6443',
    debug: false,
    logRunnerForAll: true,
    ...(hostnameCommand ? { hostnameCommand } : {}),
  });
  return services.flatMap(({ spec }) =>
    (spec.preScripts ?? []).map((p, i) => ({ name: `pre-script ${id} ${spec.name}.${i}`, text: p.script })),
  );
}

function providerScripts(p: ProviderScripts): GateScript[] {
  const out = preScripts(p.hostnameOverride?.command, p.id);
  for (const f of p.hostnameOverride?.files ?? []) {
    if (/\.ps(m?)1$/i.test(f.path)) out.push({ name: `${p.id} ${f.path}`, text: f.content.toString() });
  }
  if (p.userDataFormat) {
    const userData = buildUserData(parseAuthorizedKey(SAMPLE_KEY), p.userDataFormat);
    out.push({ name: `user-data ${p.id}`, text: userDataPowerShell(userData) });
  }
  return out;
}

/**
 * Every PowerShell script the operator sends to a host, built by the same builders the operator uses:
 * the host module, the invocation scripts (one-shot, first contact, session), the capture script
 * of `wmco hostcheck`, network-conf.ps1, and for each provider its pre-scripts (NODE_IP, the hostname
 * override), the script files it writes, and its user data.
 */
export async function operatorScripts(providers: readonly ProviderScripts[]): Promise<GateScript[]> {
  const module = await loadHostModule();
  const ref = { modulePath: module.remotePath, sha256: module.sha256 };
  const capture = await loadHostCaptureScript();
  const scripts: GateScript[] = [
    { name: 'WmcoHost.psm1', text: module.text },
    { name: 'hostInvocationScript', text: hostInvocationScript(ref) },
    { name: 'hostInstallInvocationScript', text: hostInstallInvocationScript(ref) },
    { name: 'hostSessionScript', text: hostSessionScript(ref, false) },
    { name: 'hostSessionScript (install)', text: hostSessionScript(ref, true) },
    { name: 'WmcoCapture.ps1', text: capture.text },
    { name: 'hostCaptureInvocationScript', text: hostCaptureInvocationScript(capture.sha256) },
    { name: 'network-conf.ps1', text: networkConfigScript({ serviceCidr: '172.30.0.0/16' }) },
    ...preScripts(undefined, 'core'),
  ];
  return [...scripts, ...providers.flatMap(providerScripts)];
}
