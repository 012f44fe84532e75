import type { UserDataFormat } from '../provider/capabilities/user-data-format.js';
import type { AuthorizedKey } from './authorized-key.js';

// The common PowerShell every new Windows VM runs at first boot (reference §1.8), in order: enable the
// built-in Administrator where the image has no `capi` user, install and start OpenSSH server, open the
// kubelet, windows_exporter and SSH ports, key-only SSH, and install the operator's public key for
// administrators. The only value spliced in is the public key, already reduced by parseAuthorizedKey to
// `<type> <base64>`, which contains no quote, so it is safe inside a single-quoted string.
function commonScript(key: AuthorizedKey): string {
  return `function Get-RandomPassword {
  Add-Type -AssemblyName 'System.Web'
  return [System.Web.Security.Membership]::GeneratePassword(16, 2)
}
if (-not (Get-LocalUser -Name 'capi' -ErrorAction SilentlyContinue)) {
  $admin = Get-LocalUser -Name 'Administrator' -ErrorAction SilentlyContinue
  if ($admin -and -not $admin.Enabled) {
    $password = ConvertTo-SecureString -String (Get-RandomPassword) -AsPlainText -Force
    Set-LocalUser -Name 'Administrator' -Password $password
    Enable-LocalUser -Name 'Administrator'
  }
}
$attempt = 0
while ($true) {
  try {
    Add-WindowsCapability -Online -Name 'OpenSSH.Server~~~~0.0.1.0' -ErrorAction Stop
    break
  } catch {
    $attempt++
    if ($attempt -ge 10) { throw }
    Start-Sleep -Seconds 5
  }
}
New-NetFirewallRule -DisplayName 'ContainerLogsPort' -LocalPort 10250 -Enabled True -Direction Inbound -Protocol TCP -Action Allow -EdgeTraversalPolicy Allow
New-NetFirewallRule -DisplayName 'WindowsExporter' -LocalPort 9182 -Enabled True -Direction Inbound -Protocol TCP -Action Allow -EdgeTraversalPolicy Allow
$sshRule = Get-NetFirewallRule -Name 'OpenSSH-Server-In-TCP' -ErrorAction SilentlyContinue
if (-not $sshRule) {
  New-NetFirewallRule -Name 'OpenSSH-Server-In-TCP' -DisplayName 'OpenSSH Server (sshd)' -Enabled True -Direction Inbound -Protocol TCP -Action Allow -LocalPort 22
}
Set-NetFirewallRule -Name 'OpenSSH-Server-In-TCP' -Enabled True -Profile Any
Set-Service -Name sshd -StartupType 'Automatic'
Start-Service sshd
$sshdConfig = "$env:ProgramData\\ssh\\sshd_config"
(Get-Content -Path $sshdConfig) -replace '#PubkeyAuthentication yes', 'PubkeyAuthentication yes' -replace '#PasswordAuthentication yes', 'PasswordAuthentication no' | Set-Content -Path $sshdConfig
$authorizedKeys = "$env:ProgramData\\ssh\\administrators_authorized_keys"
Set-Content -Path $authorizedKeys -Value '${key.line}' -Encoding ascii
$acl = Get-Acl -Path $authorizedKeys
$acl.SetAccessRuleProtection($true, $false)
$acl.Access | ForEach-Object { $acl.RemoveAccessRule($_) | Out-Null }
$acl.AddAccessRule((New-Object System.Security.AccessControl.FileSystemAccessRule('Administrators', 'FullControl', 'Allow')))
$acl.AddAccessRule((New-Object System.Security.AccessControl.FileSystemAccessRule('SYSTEM', 'FullControl', 'Allow')))
Set-Acl -Path $authorizedKeys -AclObject $acl
Restart-Service sshd
`;
}

/**
 * The `userData` of the `windows-user-data` Secret for a public key, on a platform: the common script,
 * the platform's extra steps, then the platform's wrapping. Deterministic: same inputs, same bytes.
 */
export function buildUserData(key: AuthorizedKey, format: UserDataFormat): string {
  const steps = format.extraSteps.map((s) => (s.endsWith('\n') ? s : `${s}\n`)).join('');
  return format.wrap(commonScript(key) + steps);
}
