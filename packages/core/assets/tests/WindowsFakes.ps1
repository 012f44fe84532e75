# Fakes of the Windows-only surface WmcoHost.psm1 uses, for the Pester suite (dot-sourced in BeforeAll).
#
# Pester mocks only commands that exist (pester/Pester #398), and on Linux the CIM, NetSecurity, DISM, HNS
# and service cmdlets and sc.exe do not: stubs are defined first (they fail when a test forgot to mock
# them), then Use-FakeWindows mocks them, inside the module, with one fake machine ($global:WmcoFake).
# Every object returned has the type and shape Microsoft documents for it; the source of each is in
# SOURCES.md next to this file (S1, S2, ... below refer to its entries).

Set-StrictMode -Version Latest

$script:StubbedCommands = @{
    'Get-CimInstance'            = '[string] $ClassName'
    'Invoke-CimMethod'           = '[object] $InputObject, [string] $MethodName, [System.Collections.IDictionary] $Arguments'
    'Get-NetFirewallRule'        = '[string[]] $Name, [string] $PolicyStore, [string] $Direction, [string] $Enabled, [string] $Action'
    'Get-NetFirewallPortFilter'  = '[object] $AssociatedNetFirewallRule, [string] $PolicyStore'
    'New-NetFirewallRule'        = '[string] $Name, [string] $DisplayName, [string] $Direction, [string] $Protocol, [string[]] $LocalPort, [string] $Action'
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

# One service of the fake SCM. OnStart: run (StartPending, then Running), crash (StartPending, then Stopped
# with CrashExitCode), hang (stays StartPending), fail (Start() throws like ServiceController.Start).
# OnStop: stop, or hang (StopPending until its process is killed).
class FakeService {
    [string] $Name
    [string] $State = 'Stopped'
    [string] $StartMode = 'Manual'
    [string] $PathName = ''
    # Win32_Service.Description is null for a service created without one.
    [object] $Description = $null
    [uint32] $ProcessId = 0
    # S2: 1077 ERROR_SERVICE_NEVER_STARTED is what a service that never ran reports.
    [uint32] $ExitCode = 1077
    [uint32] $ServiceSpecificExitCode = 0
    [string[]] $DependOnService = $null
    [string[]] $Environment = $null
    [string] $OnStart = 'run'
    [string] $OnStop = 'stop'
    [uint32] $CrashExitCode = 1066
    [uint32] $CrashSpecificCode = 3
    # -1: not deleted. Otherwise: `sc.exe query` calls still answering before the SCM lets it go (S9).
    [int] $DeleteLag = -1
    [bool] $Killed = $false
}

class FakeScm {
    [System.Collections.Specialized.OrderedDictionary] $Services = [ordered]@{}
    [System.Collections.Generic.List[string]] $Log = [System.Collections.Generic.List[string]]::new()
    [uint32] $NextPid = 4000

    [FakeService] Add([string] $name, [hashtable] $with) {
        $service = [FakeService]::new()
        $service.Name = $name
        foreach ($key in $with.Keys) { $service.$key = $with[$key] }
        if ($service.State -eq 'Running' -and $service.ProcessId -eq 0) { $service.ProcessId = $this.NextPid++ }
        $this.Services[$name] = $service
        return $service
    }

    [FakeService] Find([string] $name) {
        if ($this.Services.Contains($name)) { return $this.Services[$name] }
        return $null
    }

    [void] Start([string] $name) {
        $service = $this.Find($name)
        $this.Log.Add("start $name")
        if ($service.OnStart -eq 'fail') {
            # S3: Start() wraps the Win32 error of StartService in an InvalidOperationException.
            $inner = [System.ComponentModel.Win32Exception]::new(2, 'The system cannot find the file specified')
            throw [System.InvalidOperationException]::new("Cannot start service $name on computer '.'.", $inner)
        }
        $service.State = 'StartPending'
        $service.ProcessId = $this.NextPid++
    }

    [void] Stop([string] $name) {
        $this.Log.Add("stop $name")
        $service = $this.Find($name)
        if ($service.State -ne 'Stopped') { $service.State = 'StopPending' }
    }

    # Time passes for one service: a pending state moves on as its OnStart/OnStop says.
    [void] Tick([string] $name) {
        $service = $this.Find($name)
        if ($null -eq $service) { return }
        if ($service.State -eq 'StartPending') {
            if ($service.OnStart -eq 'run') { $service.State = 'Running' }
            if ($service.OnStart -eq 'crash') {
                $service.State = 'Stopped'
                $service.ExitCode = $service.CrashExitCode
                $service.ServiceSpecificExitCode = $service.CrashSpecificCode
                $service.ProcessId = 0
            }
        } elseif ($service.State -eq 'StopPending' -and ($service.OnStop -eq 'stop' -or $service.Killed)) {
            $service.State = 'Stopped'
            $service.ExitCode = 0
            $service.ProcessId = 0
        }
    }

    [void] Kill([uint32] $processId) {
        $this.Log.Add("kill $processId")
        foreach ($service in $this.Services.Values) {
            if ($service.ProcessId -eq $processId -and $processId -ne 0) { $service.Killed = $true }
        }
    }
}

# S3: System.ServiceProcess.ServiceController. Status is cached until Refresh(); WaitForStatus throws
# System.ServiceProcess.TimeoutException when the status is not reached in time (in the fake: when one
# tick of time does not reach it). ServicesDependedOn throws for a dependency that does not exist.
class FakeServiceController {
    hidden [FakeScm] $Scm
    [string] $ServiceName
    [System.ServiceProcess.ServiceControllerStatus] $Status

    FakeServiceController([FakeScm] $scm, [string] $name) {
        $service = $scm.Find($name)
        if ($null -eq $service) { throw [System.InvalidOperationException]::new("Service '$name' was not found on computer '.'.") }
        $this.Scm = $scm
        $this.ServiceName = $service.Name
        $this.Status = $service.State
    }

    [void] Refresh() {
        $this.Scm.Tick($this.ServiceName)
        $this.Status = $this.Scm.Find($this.ServiceName).State
    }

    [void] Start() { $this.Scm.Start($this.ServiceName) }

    [void] Stop() { $this.Scm.Stop($this.ServiceName) }

    [void] WaitForStatus([System.ServiceProcess.ServiceControllerStatus] $desired, [TimeSpan] $timeout) {
        $this.Refresh()
        if ($this.Status -ne $desired) {
            # The real constructor refuses to run off Windows; the type is what callers catch.
            $type = [System.ServiceProcess.TimeoutException]
            throw [System.Runtime.CompilerServices.RuntimeHelpers]::GetUninitializedObject($type)
        }
    }

    [object[]] GetDependentServices() {
        $dependents = @()
        foreach ($service in $this.Scm.Services.Values) {
            if (@($service.DependOnService) -contains $this.ServiceName) {
                $dependents += New-FakeServiceController $service.Name
            }
        }
        return $dependents
    }
}

function New-FakeServiceController {
    param([string] $Name)
    $controller = [FakeServiceController]::new($global:WmcoFake.Scm, $Name)
    $controller | Add-Member -MemberType ScriptProperty -Name DependentServices -Value { $this.GetDependentServices() }
    $controller | Add-Member -MemberType ScriptProperty -Name ServicesDependedOn -Value {
        foreach ($dependency in @($this.Scm.Find($this.ServiceName).DependOnService)) {
            if ($null -eq $this.Scm.Find($dependency)) {
                throw [System.InvalidOperationException]::new("Service '$dependency' was not found on computer '.'.")
            }
            New-FakeServiceController $dependency
        }
    }
    return $controller
}

# S4: a registry key (Microsoft.Win32.RegistryKey): GetValue returns string[] for REG_MULTI_SZ, string for
# REG_SZ/REG_EXPAND_SZ, Int32 for REG_DWORD, the default when the value is absent.
class FakeRegistryKey {
    [string] $Name
    [hashtable] $Values

    FakeRegistryKey([string] $name, [hashtable] $values) {
        $this.Name = $name
        $this.Values = $values
    }

    [object] GetValue([string] $name) { return $this.GetValue($name, $null) }

    [object] GetValue([string] $name, [object] $default) {
        if ($this.Values.ContainsKey($name) -and $null -ne $this.Values[$name]) { return $this.Values[$name] }
        return $default
    }

    [object] GetValue([string] $name, [object] $default, [object] $options) { return $this.GetValue($name, $default) }
}

# S5: Get-Acl of a folder (DirectorySecurity) as far as the module reads it.
class FakeAcl {
    [bool] $AreAccessRulesProtected
    [string] $Owner
    [object[]] $Rules = @()

    [object] GetOwner([type] $type) { return [pscustomobject]@{ Value = $this.Owner } }

    [object[]] GetAccessRules([bool] $explicit, [bool] $inherited, [type] $type) { return $this.Rules }

    # What the module builds with New-Object DirectorySecurity and hands to Set-Acl.
    [void] SetOwner([object] $identity) { $this.Owner = $identity.Value }
    [void] SetAccessRuleProtection([bool] $protected, [bool] $preserve) { $this.AreAccessRulesProtected = $protected }
    [void] AddAccessRule([object] $rule) { $this.Rules += $rule }
}

function New-FakeAccessRule {
    param([string] $Sid, [string] $Type = 'Allow')
    return [pscustomobject]@{ IdentityReference = [pscustomobject]@{ Value = $Sid }; AccessControlType = $Type }
}

function ConvertTo-FakeCimService {
    param([FakeService] $Service)
    # S2: Win32_Service. Strings, and uint32 for the process id and the exit codes.
    return [pscustomobject]@{
        PSTypeName              = 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service'
        Name                    = $Service.Name
        State                   = ($Service.State -creplace '([a-z])([A-Z])', '$1 $2')
        StartMode               = $Service.StartMode
        PathName                = $Service.PathName
        Description             = $Service.Description
        ProcessId               = [uint32]$Service.ProcessId
        ExitCode                = [uint32]$Service.ExitCode
        ServiceSpecificExitCode = [uint32]$Service.ServiceSpecificExitCode
    }
}

function New-FakeFirewallRule {
    param([string] $Name, [string] $Protocol = 'TCP', [string[]] $LocalPort = @('Any'), [string] $Direction = 'Inbound',
        [string] $DisplayName = $Name, [string] $Enabled = 'True', [string] $Action = 'Allow')
    # S6: MSFT_NetFirewallRule (Direction, Enabled, Action reported as text) with its one
    # MSFT_NetProtocolPortFilter: Protocol string, LocalPort string[] ('Any', '10250', '49152-65535').
    return [pscustomobject]@{
        Rule   = [pscustomobject]@{
            PSTypeName  = 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetFirewallRule'
            Name        = $Name
            DisplayName = $DisplayName
            Direction   = $Direction
            Enabled     = $Enabled
            Action      = $Action
        }
        Filter = [pscustomobject]@{
            PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetProtocolPortFilter'
            InstanceID = $Name
            Protocol   = $Protocol
            LocalPort  = [string[]]$LocalPort
            RemotePort = [string[]]@('Any')
        }
    }
}

function New-FakeRoute {
    param([string] $DestinationPrefix, [string] $NextHop = '10.0.0.1', [uint32] $IfIndex = 6, [uint16] $RouteMetric = 0)
    # S7: MSFT_NetRoute: ifIndex uint32, RouteMetric uint16.
    return [pscustomobject]@{
        PSTypeName        = 'Microsoft.Management.Infrastructure.CimInstance#root/StandardCimv2/MSFT_NetRoute'
        DestinationPrefix = $DestinationPrefix
        NextHop           = $NextHop
        ifIndex           = $IfIndex
        RouteMetric       = $RouteMetric
    }
}

function New-FakeCertificate {
    param([string] $Thumbprint, [string] $FriendlyName = '')
    # S8: Cert: items are X509Certificate2 (Thumbprint upper-case hex; FriendlyName '' when unset).
    return [pscustomobject]@{
        PSTypeName   = 'System.Security.Cryptography.X509Certificates.X509Certificate2'
        Thumbprint   = $Thumbprint
        FriendlyName = $FriendlyName
        Subject      = "CN=$Thumbprint"
    }
}

# A fresh machine: Windows Server 2022, no services, the usual registry values, one default route.
function New-FakeWindows {
    $fake = @{
        Scm             = [FakeScm]::new()
        EnvVars         = @{ Path = '%SystemRoot%\system32;%SystemRoot%' }
        CurrentVersion  = [pscustomobject]@{ CurrentBuildNumber = '20348'; UBR = [int]2700 }
        SshDefaultShell = $null
        BootTime        = [datetime]::new(2026, 11, 27, 8, 0, 0, [System.DateTimeKind]::Local)
        Containers      = 'Disabled'
        Routes          = [System.Collections.Generic.List[object]]::new()
        Firewall        = [System.Collections.Generic.List[object]]::new()
        Hns             = [System.Collections.Generic.List[object]]::new()
        HnsInstalled    = $true
        HnsFailure      = $null
        Certs           = [System.Collections.Generic.List[object]]::new()
        Acls            = @{}
        Calls           = [System.Collections.Generic.List[string]]::new()
        Hostname        = 'WIN-FAKE'
    }
    $fake.Routes.Add((New-FakeRoute '0.0.0.0/0' -RouteMetric 256))
    return $fake
}

function Get-FakeServiceKeyName {
    param([string] $Path)
    if ($Path -match '^HKLM:\\SYSTEM\\CurrentControlSet\\Services\\([^\\]+)$') { return $Matches[1] }
    return $null
}

function Get-FakeRegistryKey {
    param([string] $Path)
    $fake = $global:WmcoFake
    $serviceName = Get-FakeServiceKeyName $Path
    if ($null -ne $serviceName) {
        $service = $fake.Scm.Find($serviceName)
        if ($null -eq $service) { return $null }
        return [FakeRegistryKey]::new($Path, @{ DependOnService = $service.DependOnService; Environment = $service.Environment })
    }
    switch ($Path) {
        'HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment' { return [FakeRegistryKey]::new($Path, $fake.EnvVars) }
        'HKLM:\SOFTWARE\OpenSSH' {
            if ($null -eq $fake.SshDefaultShell) { return $null }
            return [FakeRegistryKey]::new($Path, @{ DefaultShell = $fake.SshDefaultShell })
        }
    }
    return $null
}

function Set-FakeRegistryValue {
    param([string] $Path, [string] $Name, [object] $Value, [string] $Type)
    $fake = $global:WmcoFake
    $fake.Calls.Add("Set-ItemProperty $Path $Name $Type")
    $serviceName = Get-FakeServiceKeyName $Path
    if ($null -ne $serviceName) {
        $fake.Scm.Find($serviceName).$Name = [string[]]@($Value)
        return
    }
    $fake.EnvVars[$Name] = [string]$Value
}

function Remove-FakeRegistryValue {
    param([string] $Path, [string] $Name)
    $fake = $global:WmcoFake
    $fake.Calls.Add("Remove-ItemProperty $Path $Name")
    $serviceName = Get-FakeServiceKeyName $Path
    if ($null -ne $serviceName) {
        $fake.Scm.Find($serviceName).$Name = $null
        return
    }
    $fake.EnvVars.Remove($Name)
}

# S1/S9: sc.exe answers with text and its exit code is the Win32 error (1060: no such service).
function Invoke-FakeSc {
    $command = [string]$args[0]
    $name = [string]$args[1]
    $fake = $global:WmcoFake
    $fake.Calls.Add("sc.exe $($args -join ' ')")
    $service = $fake.Scm.Find($name)
    if ($null -eq $service) {
        $global:LASTEXITCODE = 1060
        return "[SC] OpenService FAILED 1060:", '', 'The specified service does not exist as an installed service.', ''
    }
    $global:LASTEXITCODE = 0
    switch ($command) {
        'qc' { return '[SC] QueryServiceConfig SUCCESS', '', "SERVICE_NAME: $name" }
        'query' {
            if ($service.DeleteLag -eq 0) {
                $fake.Scm.Services.Remove($name)
                $global:LASTEXITCODE = 1060
                return '[SC] EnumQueryServicesStatus:OpenService FAILED 1060:'
            }
            if ($service.DeleteLag -gt 0) { $service.DeleteLag-- }
            return "SERVICE_NAME: $name"
        }
        'delete' {
            if ($service.DeleteLag -lt 0) { $service.DeleteLag = 2 }
            return '[SC] DeleteService SUCCESS'
        }
        'config' {
            if ($args[2] -eq 'depend=' -and $args[3] -eq '/') { $service.DependOnService = [string[]]@() }
            return '[SC] ChangeServiceConfig SUCCESS'
        }
    }
    $global:LASTEXITCODE = 87
    return '[SC] invalid command'
}

# Mocks every Windows-only command the module calls with the fake machine in $global:WmcoFake (Reset-FakeWindows
# gives each test a fresh one). Called once in a BeforeAll: the mocks are that block's.
function Use-FakeWindows {
    $m = @{ ModuleName = 'WmcoHost' }
    # Calls no filter below matches go to the real command (Pester 6 needs a default mock for that). A mock
    # sees only the parameters it was given, as variables: those the module passes are handed on.
    # $PesterBoundParameters holds what the call passed (a mock's $PSBoundParameters is empty); the aliases
    # it also lists (PSPath, LP) would make the call ambiguous.
    foreach ($command in @('Test-Path', 'Get-Item', 'Get-ChildItem', 'Remove-Item')) {
        $body = '$p = @{} + $PesterBoundParameters; foreach ($a in @(''PSPath'', ''LP'')) { $null = $p.Remove($a) }; ' +
        "Microsoft.PowerShell.Management\$command @p -ErrorAction SilentlyContinue"
        Mock @m $command ([scriptblock]::Create($body))
    }
    Mock @m Get-Process {}
    Mock @m Stop-Process { $global:WmcoFake.Calls.Add("Stop-Process $($PesterBoundParameters['Name'])") }
    Mock @m Start-Sleep {}
    Mock @m sc.exe { Invoke-FakeSc @args }
    Mock @m icacls.exe { $global:WmcoFake.Calls.Add("icacls.exe $($args -join ' ')"); $global:LASTEXITCODE = 0 }
    Mock @m shutdown.exe { $global:WmcoFake.Calls.Add("shutdown.exe $($args -join ' ')"); $global:LASTEXITCODE = 0 }
    Mock @m Get-CimInstance -ParameterFilter { $ClassName -eq 'Win32_Service' } {
        foreach ($service in @($global:WmcoFake.Scm.Services.Values)) { ConvertTo-FakeCimService $service }
    }
    # S2: Win32_OperatingSystem.LastBootUpTime is a CIM datetime, a local DateTime in PowerShell.
    Mock @m Get-CimInstance -ParameterFilter { $ClassName -eq 'Win32_OperatingSystem' } {
        [pscustomobject]@{ LastBootUpTime = $global:WmcoFake.BootTime }
    }
    Mock @m Invoke-CimMethod {
        $service = $global:WmcoFake.Scm.Find($InputObject.Name)
        $global:WmcoFake.Calls.Add("Change $($InputObject.Name) $(@($Arguments.Keys | Sort-Object) -join ',')")
        $service.PathName = $Arguments.PathName
        $service.StartMode = @{ Automatic = 'Auto'; Manual = 'Manual'; Disabled = 'Disabled' }[$Arguments.StartMode]
        # S2: a parameter left out (or an empty array, which WMI passes as NULL) leaves the setting as it is.
        if ($Arguments.ContainsKey('ServiceDependencies') -and @($Arguments.ServiceDependencies).Count -gt 0) {
            $service.DependOnService = [string[]]$Arguments.ServiceDependencies
        }
        [pscustomobject]@{ ReturnValue = [uint32]0 }
    }
    Mock @m New-Service {
        $existing = $global:WmcoFake.Scm.Find($Name)
        if ($null -ne $existing) { throw "Service '$Name' cannot be created: 1072 The specified service has been marked for deletion." }
        $mode = @{ Automatic = 'Auto'; Manual = 'Manual'; Disabled = 'Disabled' }[$StartupType]
        $null = $global:WmcoFake.Scm.Add($Name, @{ PathName = $BinaryPathName; StartMode = $mode; Description = $Description
                DependOnService = [string[]]$PesterBoundParameters['DependsOn'] })
    }
    Mock @m Set-Service { $global:WmcoFake.Scm.Find($Name).Description = $Description }
    Mock @m New-Object -ParameterFilter { $TypeName -eq 'System.ServiceProcess.ServiceController' } {
        New-FakeServiceController ([string]@($ArgumentList)[0])
    }
    Mock @m New-Object -ParameterFilter { $TypeName -eq 'System.Security.AccessControl.DirectorySecurity' } { [FakeAcl]::new() }
    Mock @m New-Object -ParameterFilter { $TypeName -eq 'System.Security.Principal.SecurityIdentifier' } {
        [pscustomobject]@{ Value = [string]@($ArgumentList)[0] }
    }
    Mock @m New-Object -ParameterFilter { $TypeName -eq 'System.Security.AccessControl.FileSystemAccessRule' } {
        New-FakeAccessRule $ArgumentList[0].Value ([string]$ArgumentList[4])
    }
    Mock @m Get-Process -ParameterFilter { $null -ne $PesterBoundParameters['Id'] } {
        $service = @($global:WmcoFake.Scm.Services.Values | Where-Object { $_.ProcessId -eq $Id[0] })
        if ($service.Count -eq 0) { return }
        $process = [pscustomobject]@{ Id = $Id[0]; Service = $service[0] }
        $process | Add-Member -MemberType ScriptMethod -Name WaitForExit -Value { param($ms) $this.Service.State -eq 'Stopped' }
        $process
    }
    Mock @m Stop-Process -ParameterFilter { $null -ne $PesterBoundParameters['Id'] } { foreach ($one in $Id) { $global:WmcoFake.Scm.Kill($one) } }
    Mock @m Get-Item -ParameterFilter { $LiteralPath -like 'HKLM:\*' } {
        $key = Get-FakeRegistryKey $LiteralPath[0]
        # Only ever asked with -ErrorAction SilentlyContinue, or for a key every Windows has.
        $key
    }
    Mock @m Test-Path -ParameterFilter { $LiteralPath -like 'HKLM:\*' } { $null -ne (Get-FakeRegistryKey $LiteralPath[0]) }
    Mock @m Set-ItemProperty -ParameterFilter { $LiteralPath -like 'HKLM:\*' } {
        Set-FakeRegistryValue $LiteralPath[0] $Name $Value ([string]$PesterBoundParameters['Type'])
    }
    Mock @m Remove-ItemProperty -ParameterFilter { $LiteralPath -like 'HKLM:\*' } { Remove-FakeRegistryValue $LiteralPath[0] $Name[0] }
    # S4: CurrentBuildNumber is REG_SZ, UBR is REG_DWORD.
    Mock @m Get-ItemProperty -ParameterFilter { $LiteralPath -eq 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion' } {
        $global:WmcoFake.CurrentVersion
    }
    # S10: Get-WindowsOptionalFeature returns a FeatureObject whose State is a DISM FeatureState.
    Mock @m Get-WindowsOptionalFeature {
        [pscustomobject]@{ FeatureName = $FeatureName; State = $global:WmcoFake.Containers }
    }
    Mock @m Install-WindowsFeature { $global:WmcoFake.Containers = 'EnablePending'; [pscustomobject]@{ Success = $true; RestartNeeded = 'Yes' } }
    Mock @m Rename-Computer { $global:WmcoFake.Calls.Add("Rename-Computer $NewName") }
    Mock @m Get-NetRoute {
        $routes = @($global:WmcoFake.Routes)
        if ($null -ne $PesterBoundParameters['DestinationPrefix']) { $routes = @($routes | Where-Object { $DestinationPrefix -contains $_.DestinationPrefix }) }
        $routes
    }
    Mock @m New-NetRoute {
        $global:WmcoFake.Routes.Add((New-FakeRoute $DestinationPrefix $NextHop $InterfaceIndex))
        New-FakeRoute $DestinationPrefix $NextHop $InterfaceIndex
    }
    Mock @m Get-NetFirewallRule {
        $rules = @($global:WmcoFake.Firewall | ForEach-Object { $_.Rule })
        # A mock sees only the parameters it was given as variables.
        if ($null -eq $PesterBoundParameters['PolicyStore']) {
            $wanted = [WildcardPattern]::new($Name[0], [System.Management.Automation.WildcardOptions]::IgnoreCase)
            $rules = @($rules | Where-Object { $wanted.IsMatch($_.Name) })
            # Not found: an error, silenced by the module's -ErrorAction SilentlyContinue.
            return $rules
        }
        $rules | Where-Object { $_.Direction -eq $Direction -and $_.Enabled -eq $Enabled -and $_.Action -eq $Action }
    }
    Mock @m Get-NetFirewallPortFilter {
        if ($null -ne $PesterBoundParameters['AssociatedNetFirewallRule']) {
            return ($global:WmcoFake.Firewall | Where-Object { $_.Rule.Name -eq $AssociatedNetFirewallRule.Name } | ForEach-Object { $_.Filter })
        }
        $global:WmcoFake.Firewall | ForEach-Object { $_.Filter }
    }
    Mock @m Remove-NetFirewallRule {
        $wanted = [WildcardPattern]::new($Name[0], [System.Management.Automation.WildcardOptions]::IgnoreCase)
        foreach ($entry in @($global:WmcoFake.Firewall | Where-Object { $wanted.IsMatch($_.Rule.Name) })) {
            $null = $global:WmcoFake.Firewall.Remove($entry)
        }
    }
    Mock @m New-NetFirewallRule {
        $global:WmcoFake.Firewall.Add((New-FakeFirewallRule $Name $Protocol $LocalPort $Direction $DisplayName))
    }
    Mock @m Get-Command -ParameterFilter { $Name -eq 'Get-HnsNetwork' } {
        if ($global:WmcoFake.HnsInstalled) { Microsoft.PowerShell.Core\Get-Command Get-HnsNetwork }
    }
    Mock @m Import-Module -ParameterFilter { $Name -eq 'C:\Temp\hns.psm1' } {
        $global:WmcoFake.Calls.Add('Import-Module hns.psm1')
        $global:WmcoFake.HnsInstalled = $true
    }
    Mock @m Test-Path -ParameterFilter { $LiteralPath -eq 'C:\Temp\hns.psm1' } { $true }
    # S11: hns.psm1's Get-HnsNetwork: the HNS service's JSON (ID, Name, Type, ...) as objects; it calls
    # into vmcompute.dll, which fails before the Containers feature is active.
    Mock @m Get-HnsNetwork {
        if ($null -ne $global:WmcoFake.HnsFailure) { throw $global:WmcoFake.HnsFailure }
        # A new array per call, as the cmdlet returns (removing while it is enumerated is then safe).
        @($global:WmcoFake.Hns)
    }
    Mock @m Remove-HnsNetwork {
        $global:WmcoFake.Calls.Add("Remove-HnsNetwork $($InputObject.Name)")
        $null = $global:WmcoFake.Hns.Remove($InputObject)
    }
    Mock @m Get-ChildItem -ParameterFilter { $LiteralPath -eq 'Cert:\LocalMachine\Root' } { @($global:WmcoFake.Certs) }
    Mock @m Get-Item -ParameterFilter { $LiteralPath -like 'Cert:\*' } {
        $thumbprint = Split-Path -Leaf $LiteralPath[0]
        $cert = $global:WmcoFake.Certs | Where-Object { $_.Thumbprint -eq $thumbprint }
        $cert
    }
    Mock @m Test-Path -ParameterFilter { $LiteralPath -like 'Cert:\*' } {
        $thumbprint = Split-Path -Leaf $LiteralPath[0]
        $null -ne ($global:WmcoFake.Certs | Where-Object { $_.Thumbprint -eq $thumbprint })
    }
    Mock @m Remove-Item -ParameterFilter { $LiteralPath -like 'Cert:\*' } {
        $thumbprint = Split-Path -Leaf $LiteralPath[0]
        foreach ($cert in @($global:WmcoFake.Certs | Where-Object { $_.Thumbprint -eq $thumbprint })) {
            $null = $global:WmcoFake.Certs.Remove($cert)
        }
    }
    Mock @m Get-Acl {
        $acl = $global:WmcoFake.Acls[$LiteralPath[0]]
        if ($null -eq $acl) {
            # A folder as New-Item makes it under C:\: inherited entries, owner the creating admin.
            $acl = [FakeAcl]::new()
            $acl.Owner = 'S-1-5-21-1-2-3-500'
            $acl.Rules = @((New-FakeAccessRule 'S-1-5-32-545'), (New-FakeAccessRule 'S-1-5-18'))
        }
        $acl
    }
    Mock @m Set-Acl { $global:WmcoFake.Acls[$LiteralPath[0]] = $AclObject; $global:WmcoFake.Calls.Add("Set-Acl $($LiteralPath[0])") }
}

# The module under test (imported once per file; Reset-FakeWindows puts its settings back for each test).
function Import-WmcoHostModule {
    $path = Join-Path $PSScriptRoot '..' 'WmcoHost.psm1'
    Import-Module $path -Force -DisableNameChecking
    $global:WmcoModuleDefaults = InModuleScope WmcoHost {
        @{ StagingDir = $script:StagingDir; ProtectedRoots = $script:ProtectedRoots; PrunableRoots = $script:PrunableRoots }
    }
}

# A fresh fake machine for the next test, and the module's folders as the module sets them.
function Reset-FakeWindows {
    $global:WmcoFake = New-FakeWindows
    InModuleScope WmcoHost -Parameters @{ d = $global:WmcoModuleDefaults } {
        param($d)
        $script:StagingDir = $d.StagingDir
        $script:ProtectedRoots = $d.ProtectedRoots
        $script:PrunableRoots = $d.PrunableRoots
    }
}

# One request through the module's entry point, as the operator sends it: JSON in, one line of JSON out.
function Invoke-WmcoJson {
    param([hashtable] $Request)
    $line = Invoke-WmcoHost -RequestJson ($Request | ConvertTo-Json -Depth 12 -Compress)
    return [pscustomobject]@{ Text = $line; Json = [System.Text.Json.JsonDocument]::Parse($line).RootElement }
}

# An observe request asking for nothing but what every observe reports.
function New-ObserveRequest {
    param([hashtable] $With = @{})
    $request = @{ v = 1; op = 'observe'; directories = @(); files = @(); services = @(); envVars = @(); firewallRules = @() }
    foreach ($key in $With.Keys) { $request[$key] = $With[$key] }
    return $request
}

# The JSON value at a dotted path ('state.services.0.environment').
function Get-JsonAt {
    param([System.Text.Json.JsonElement] $Element, [string] $Path)
    foreach ($part in $Path.Split('.')) {
        if ($part -match '^\d+$') { $Element = @($Element.EnumerateArray())[[int]$part] } else { $Element = $Element.GetProperty($part) }
    }
    return $Element
}
