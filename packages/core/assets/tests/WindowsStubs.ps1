# Stubs of the Windows-only commands WmcoHost.psm1 calls, for the Pester suite (dot-sourced by WindowsFakes.ps1).
# Pester mocks only commands that exist (pester/Pester #398), and on Linux the CIM, NetSecurity, DISM, HNS
# and service cmdlets and sc.exe do not: these stubs are defined first and fail when a test forgot to mock
# them; FakeMocks.ps1 then mocks them inside the module.

$script:StubbedCommands = @{
    'Get-CimInstance'            = '[string] $ClassName'
    'Invoke-CimMethod'           = '[object] $InputObject, [string] $MethodName, [System.Collections.IDictionary] $Arguments'
    'Get-NetFirewallRule'        = '[string[]] $Name, [string] $PolicyStore, [string] $Direction, [string] $Enabled, [string] $Action'
    'Get-NetFirewallPortFilter'  = '[object] $AssociatedNetFirewallRule, [string] $PolicyStore'
    'New-NetFirewallRule'        = '[string] $Name, [string] $DisplayName, [string] $Description, [string] $Direction, [string] $Protocol, [string[]] $LocalPort, [string] $Action'
    'Remove-NetFirewallRule'     = '[string[]] $Name'
    'Get-NetRoute'               = '[string] $AddressFamily, [string[]] $DestinationPrefix'
    'New-NetRoute'               = '[string] $DestinationPrefix, [uint32] $InterfaceIndex, [string] $NextHop'
    'Get-WindowsOptionalFeature' = '[switch] $Online, [string] $FeatureName'
    'Install-WindowsFeature'     = '[string[]] $Name'
    'Rename-Computer'            = '[string] $NewName, [switch] $Force'
    'Get-Acl'                    = '[string[]] $LiteralPath'
    'Set-Acl'                    = '[string[]] $LiteralPath, [object] $AclObject'
    'New-Service'                = '[string] $Name, [string] $BinaryPathName, [string] $StartupType, [string] $Description, [string[]] $DependsOn'
    'Set-Service'                = '[string] $Name, [string] $Description'
    'Get-HnsNetwork'             = ''
    'Remove-HnsNetwork'          = '[Parameter(ValueFromPipeline = $true)] [object] $InputObject'
}
foreach ($command in $script:StubbedCommands.Keys) {
    if (Get-Command $command -ErrorAction SilentlyContinue) { continue }
    $body = "[CmdletBinding()] param($($script:StubbedCommands[$command])) process { throw 'not mocked: $command' }"
    $null = New-Item -Path "function:global:$command" -Value ([scriptblock]::Create($body)) -Force
}
foreach ($exe in @('sc.exe', 'icacls.exe', 'shutdown.exe')) {
    if (Get-Command $exe -ErrorAction SilentlyContinue) { continue }
    $null = New-Item -Path "function:global:$exe" -Value ([scriptblock]::Create("throw 'not mocked: $exe'")) -Force
}

# Off Windows there is no registry provider, so Set-ItemProperty has no -Type (a dynamic parameter of that
# provider) for a mock to accept: a function of the same name, which a mock then replaces, takes it.
if (-not (Get-PSProvider -PSProvider Registry -ErrorAction SilentlyContinue)) {
    function global:Set-ItemProperty {
        [CmdletBinding()]
        param([string[]] $LiteralPath, [string] $Name, [object] $Value, [string] $Type, [switch] $Force)
        $null = $PSBoundParameters.Remove('Type')
        Microsoft.PowerShell.Management\Set-ItemProperty @PSBoundParameters
    }
}
