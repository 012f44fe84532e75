# The PowerShell engine of a simulated Windows host (packages/sim src/windows/pwsh). One pwsh process per
# host module session: drive C: is the host's folder, the shims (global functions, found before cmdlets and
# executables) stand for what only Windows has and call the simulator's model of this host, then the
# session script the operator sent runs as powershell.exe would run its -EncodedCommand.
# The token (WMCO_SIM_TOKEN) and the script (WMCO_SIM_SCRIPT, base64 of UTF-8) arrive in the environment.
param(
    [Parameter(Mandatory = $true)] [string] $Root,
    [Parameter(Mandatory = $true)] [string] $Rpc,
    [Parameter(Mandatory = $true)] [string] $ComputerName
)
$ErrorActionPreference = 'Stop'
$global:WmcoSimRpc = $Rpc
$global:WmcoSimToken = $env:WMCO_SIM_TOKEN
$wmcoSessionScript = [System.Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($env:WMCO_SIM_SCRIPT))
Remove-Item -LiteralPath Env:WMCO_SIM_TOKEN, Env:WMCO_SIM_SCRIPT
$null = New-PSDrive -Name C -PSProvider FileSystem -Root $Root -Scope Global
Set-Location -LiteralPath 'C:\'
$env:COMPUTERNAME = $ComputerName
$env:SystemRoot = 'C:\Windows'
foreach ($part in @('shims-rpc.ps1', 'shims-services.ps1', 'shims-registry.ps1', 'shims-network.ps1', 'shims-system.ps1')) {
    . (Join-Path $PSScriptRoot $part)
}
Remove-Variable -Name part, Root, Rpc, ComputerName
# WmcoHost.psm1's Get-WmcoBootId keeps its GUID in a volatile HKLM key through Microsoft.Win32.Registry, and
# there is no such registry off Windows: once the session script creates the module, that one function is
# replaced in the module's own scope by the host model's volatile registry (WindowsModel.bootId, lost at
# power-off as the key is). Everything else of the module runs as delivered.
function global:New-Module {
    param([string] $Name, [scriptblock] $ScriptBlock)
    $module = Microsoft.PowerShell.Core\New-Module -Name $Name -ScriptBlock $ScriptBlock
    if ($Name -eq 'WmcoHost') { & $module { function script:Get-WmcoBootId { [string](Invoke-WmcoSimCall 'host.bootId') } } }
    return $module
}
. ([scriptblock]::Create($wmcoSessionScript))
