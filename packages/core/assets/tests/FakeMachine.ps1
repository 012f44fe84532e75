# One fake Windows machine for the Pester suite: the objects Windows' commands return (shapes per SOURCES.md,
# S1, S2, ...), a fresh machine, its registry and sc.exe (dot-sourced by WindowsFakes.ps1).

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
        [string] $DisplayName = $Name, [string] $Enabled = 'True', [string] $Action = 'Allow', [string] $Description = '')
    # S6: MSFT_NetFirewallRule (Direction, Enabled, Action reported as text) with its one
    # MSFT_NetProtocolPortFilter: Protocol string, LocalPort string[] ('Any', '10250', '49152-65535').
    return [pscustomobject]@{
        Rule   = [pscustomobject]@{
            PSTypeName  = 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetFirewallRule'
            Name        = $Name
            DisplayName = $DisplayName
            Description = $Description
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
        # Get-WmcoBootId's GUID (a volatile registry key on Windows, which no Linux registry can hold).
        BootId          = '3f2504e0-4f89-41d3-9a0c-0305e82c3301'
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
