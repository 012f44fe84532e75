# The service control manager: ServiceController, Win32_Service, New-Service, Set-Service, sc.exe,
# Get-Process/Stop-Process on service processes. Sources (types and shapes):
#   ServiceController: https://learn.microsoft.com/en-us/dotnet/api/system.serviceprocess.servicecontroller
#   Win32_Service: https://learn.microsoft.com/en-us/windows/win32/cimwin32prov/win32-service
#   Win32_Service.Change: https://learn.microsoft.com/en-us/windows/win32/cimwin32prov/change-method-in-class-win32-service
#   New-Service: https://learn.microsoft.com/en-us/powershell/module/microsoft.powershell.management/new-service?view=powershell-5.1
#   sc.exe qc/delete: https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/sc-query

function global:New-WmcoSimServiceController {
    param([string] $Name)
    $controller = [pscustomobject]@{ PSTypeName = 'System.ServiceProcess.ServiceController'; ServiceName = $Name; MachineName = '.'; CachedStatus = $null }
    # Status is read from the SCM once and kept until Refresh(), as .NET does.
    $controller | Add-Member -MemberType ScriptProperty -Name Status -Value {
        if ($null -eq $this.CachedStatus) { $this.CachedStatus = [string](Invoke-WmcoSimCall 'service.status' @{ name = $this.ServiceName }) }
        return $this.CachedStatus
    }
    $controller | Add-Member -MemberType ScriptProperty -Name ServicesDependedOn -Value {
        # ServiceController[]: an empty array stays an array (a ScriptProperty would unroll it to $null).
        return , [object[]]@(Invoke-WmcoSimCall 'service.dependsOn' @{ name = $this.ServiceName } | ForEach-Object { $_ } |
                ForEach-Object { New-WmcoSimServiceController $_ })
    }
    $controller | Add-Member -MemberType ScriptProperty -Name DependentServices -Value {
        return , [object[]]@(Invoke-WmcoSimCall 'service.dependents' @{ name = $this.ServiceName } | ForEach-Object { $_ } |
                ForEach-Object { New-WmcoSimServiceController $_ })
    }
    $controller | Add-Member -MemberType ScriptMethod -Name Refresh -Value { $this.CachedStatus = $null }
    $controller | Add-Member -MemberType ScriptMethod -Name Start -Value {
        $null = Invoke-WmcoSimCall 'service.start' @{ name = $this.ServiceName }
        $this.CachedStatus = $null
    }
    $controller | Add-Member -MemberType ScriptMethod -Name Stop -Value {
        $null = Invoke-WmcoSimCall 'service.stop' @{ name = $this.ServiceName }
        $this.CachedStatus = $null
    }
    # .NET polls until the status or the timeout, then throws System.ServiceProcess.TimeoutException
    # (not loadable off Windows: System.TimeoutException with .NET's message stands for it).
    $controller | Add-Member -MemberType ScriptMethod -Name WaitForStatus -Value {
        param($Status, $Timeout)
        $ms = [double]::MaxValue
        if ($null -ne $Timeout) { $ms = ([TimeSpan]$Timeout).TotalMilliseconds }
        $reached = Invoke-WmcoSimCall 'service.waitForStatus' @{ name = $this.ServiceName; status = [string]$Status; timeoutMs = $ms }
        $this.CachedStatus = $null
        if (-not $reached) { throw [System.TimeoutException]::new('Time out has expired and the operation has not been completed.') }
    }
    return $controller
}

function global:ConvertTo-WmcoSimCimService {
    param([object] $Service)
    return [pscustomobject]@{
        PSTypeName  = 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service'
        Name        = [string]$Service.Name
        DisplayName = [string]$Service.DisplayName
        State       = [string]$Service.State
        StartMode   = [string]$Service.StartMode
        PathName    = [string]$Service.PathName
        Description = $Service.Description
        ProcessId   = [uint32]$Service.ProcessId
        ExitCode    = [uint32]$Service.ExitCode
        Started     = [bool]$Service.Started
        ServiceType = 'Own Process'
        StartName   = 'LocalSystem'
    }
}

function global:New-Object {
    [CmdletBinding(DefaultParameterSetName = 'Net')]
    param(
        [Parameter(ParameterSetName = 'Net', Mandatory = $true, Position = 0)] [string] $TypeName,
        [Parameter(ParameterSetName = 'Net', Position = 1)] [Alias('Args')] [object[]] $ArgumentList,
        [Parameter(ParameterSetName = 'Com', Mandatory = $true)] [string] $ComObject,
        [switch] $Strict,
        [System.Collections.IDictionary] $Property
    )
    switch -Regex ($TypeName) {
        '^(System\.ServiceProcess\.)?ServiceController$' { return New-WmcoSimServiceController ([string]$ArgumentList[0]) }
        '^(System\.Security\.AccessControl\.)?DirectorySecurity$' { return New-WmcoSimDirectorySecurity }
        '^(System\.Security\.Principal\.)?SecurityIdentifier$' { return New-WmcoSimSid ([string]$ArgumentList[0]) }
        '^(System\.Security\.AccessControl\.)?FileSystemAccessRule$' { return New-WmcoSimAccessRule $ArgumentList }
        '^(System\.IO\.)?DirectoryInfo$' { return New-WmcoSimDirectoryInfo ([string]$ArgumentList[0]) }
    }
    Microsoft.PowerShell.Utility\New-Object @PSBoundParameters
}

function global:Get-CimInstance {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)] [string] $ClassName,
        [string] $Namespace,
        [string] $Filter
    )
    switch ($ClassName) {
        'Win32_Service' { foreach ($s in (Invoke-WmcoSimCall 'service.list')) { ConvertTo-WmcoSimCimService $s } }
        'Win32_OperatingSystem' {
            $os = Invoke-WmcoSimCall 'os.get'
            [pscustomobject]@{
                PSTypeName     = 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_OperatingSystem'
                LastBootUpTime = [DateTime]::Parse($os.lastBootUpTime, [Globalization.CultureInfo]::InvariantCulture, 'RoundtripKind').ToLocalTime()
                BuildNumber    = [string]$os.buildNumber
                CSName         = $env:COMPUTERNAME
                Caption        = 'Microsoft Windows Server 2022 Datacenter'
            }
        }
        default { Write-WmcoSimError $PSCmdlet "Invalid class" 'InvalidType' }
    }
}

function global:Invoke-CimMethod {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)] [object] $InputObject,
        [Parameter(Mandatory = $true)] [string] $MethodName,
        [System.Collections.IDictionary] $Arguments = @{}
    )
    if ($MethodName -ne 'Change' -or @($InputObject).Count -ne 1) { throw "the simulated host models Win32_Service.Change on one service only" }
    $params = @{ name = [string]$InputObject.Name }
    if ($Arguments.Contains('PathName')) { $params.pathName = [string]$Arguments.PathName }
    if ($Arguments.Contains('StartMode')) { $params.startMode = [string]$Arguments.StartMode }
    # ChangeServiceConfig: a NULL dependency list means "unchanged"; WMI passes an empty array as NULL.
    if ($Arguments.Contains('ServiceDependencies') -and @($Arguments.ServiceDependencies).Count -gt 0) {
        $params.dependencies = [string[]]@($Arguments.ServiceDependencies)
    }
    $code = Invoke-WmcoSimCall 'service.change' $params
    return [pscustomobject]@{ ReturnValue = [uint32]$code }
}

function global:New-Service {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)] [string] $Name,
        [Parameter(Mandatory = $true, Position = 1)] [string] $BinaryPathName,
        [string] $DisplayName,
        [string] $Description,
        [ValidateSet('Automatic', 'Manual', 'Disabled', 'AutomaticDelayedStart')] [string] $StartupType = 'Automatic',
        [string[]] $DependsOn
    )
    $dependencies = [string[]]@()
    if ($null -ne $DependsOn) { $dependencies = $DependsOn }
    try {
        $null = Invoke-WmcoSimCall 'service.create' @{ name = $Name; binaryPathName = $BinaryPathName; startupType = $StartupType; description = $Description; dependsOn = $dependencies }
    } catch {
        Write-WmcoSimError $PSCmdlet "Service '$Name ($Name)' cannot be created due to the following error: $($_.Exception.Message)" 'PermissionDenied'
        return
    }
    return New-WmcoSimServiceController $Name
}

function global:Set-Service {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)] [string] $Name,
        [string] $Description,
        [string] $StartupType
    )
    if ($PSBoundParameters.ContainsKey('Description')) { $null = Invoke-WmcoSimCall 'service.setDescription' @{ name = $Name; description = $Description } }
    if ($PSBoundParameters.ContainsKey('StartupType')) { $null = Invoke-WmcoSimCall 'service.change' @{ name = $Name; startMode = $StartupType } }
}

function global:Get-WmcoSimQc {
    param([object] $Service)
    $start = @{ Auto = '2   AUTO_START'; Manual = '3   DEMAND_START'; Disabled = '4   DISABLED' }[[string]$Service.StartMode]
    $deps = @(Invoke-WmcoSimCall 'service.dependencyNames' @{ name = $Service.Name } | ForEach-Object { $_ })
    return @('[SC] QueryServiceConfig SUCCESS', '', "SERVICE_NAME: $($Service.Name)",
        '        TYPE               : 10  WIN32_OWN_PROCESS', "        START_TYPE         : $start",
        '        ERROR_CONTROL      : 1   NORMAL', "        BINARY_PATH_NAME   : $($Service.PathName)",
        '        LOAD_ORDER_GROUP   :', '        TAG                : 0', "        DISPLAY_NAME       : $($Service.Name)",
        "        DEPENDENCIES       : $($deps -join "`r`n                           : ")", '        SERVICE_START_NAME : LocalSystem')
}

# sc.exe as the module runs it: qc, query, config <name> depend= <a/b or />, delete; exit code in
# $LASTEXITCODE, text on stdout (sc.exe prints its errors on stdout too).
function global:sc.exe {
    $verb = [string]$args[0]
    $name = [string]$args[1]
    $missing = @("[SC] OpenService FAILED 1060:", '', 'The specified service does not exist as an installed service.', '')
    $service = @(Invoke-WmcoSimCall 'service.list' | ForEach-Object { $_ } | Where-Object { $_.Name -eq $name })
    if ($service.Count -eq 0) {
        $global:LASTEXITCODE = 1060
        return $missing
    }
    $global:LASTEXITCODE = 0
    switch ($verb) {
        'qc' { return Get-WmcoSimQc $service[0] }
        'query' { return @('', "SERVICE_NAME: $name", '        TYPE               : 10  WIN32_OWN_PROCESS', "        STATE              : $($service[0].State.ToUpperInvariant() -replace ' ', '_')") }
        'config' { return Set-WmcoSimScConfig $name @($args | Select-Object -Skip 2) }
        'delete' {
            $global:LASTEXITCODE = [int](Invoke-WmcoSimCall 'service.delete' @{ name = $name })
            if ($global:LASTEXITCODE -eq 0) { return '[SC] DeleteService SUCCESS' }
            return $missing
        }
        default { throw "sc.exe $verb is not modelled by the simulated host" }
    }
}

# sc.exe config <name> depend= <names separated by />; "/" alone clears the list.
function global:Set-WmcoSimScConfig {
    param([string] $Name, [object[]] $Options)
    if ($Options.Count -ne 2 -or [string]$Options[0] -ne 'depend=') { throw "sc.exe config $($Options -join ' ') is not modelled by the simulated host" }
    $names = [string[]]@(([string]$Options[1]).Split('/') | Where-Object { $_ -ne '' })
    $null = Invoke-WmcoSimCall 'service.change' @{ name = $Name; dependencies = $names }
    return '[SC] ChangeServiceConfig SUCCESS'
}

# A service's process (Id, ProcessName, WaitForExit); the shims never reach a real process of this machine.
function global:New-WmcoSimProcess {
    param([int] $Id, [string] $Name)
    $process = [pscustomobject]@{ PSTypeName = 'System.Diagnostics.Process'; Id = $Id; ProcessName = $Name }
    $process | Add-Member -MemberType ScriptMethod -Name WaitForExit -Value {
        param([int] $Milliseconds)
        $until = [DateTime]::UtcNow.AddMilliseconds($Milliseconds)
        while ($null -ne (Invoke-WmcoSimCall 'process.byId' @{ id = $this.Id })) {
            if ([DateTime]::UtcNow -ge $until) { return $false }
            Start-Sleep -Milliseconds 50
        }
        return $true
    }
    return $process
}

function global:Get-Process {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Name,
        [int[]] $Id
    )
    foreach ($i in $Id) {
        $service = Invoke-WmcoSimCall 'process.byId' @{ id = $i }
        if ($null -eq $service) { Write-WmcoSimError $PSCmdlet "Cannot find a process with the process identifier $i."; continue }
        New-WmcoSimProcess $i $service
    }
    foreach ($n in $Name) {
        # Only Defender's MsMpEng is modelled among processes that are not services.
        if ($n -eq 'MsMpEng' -and (Invoke-WmcoSimCall 'defender.running')) { New-WmcoSimProcess 3000 'MsMpEng'; continue }
        Write-WmcoSimError $PSCmdlet "Cannot find a process with the name `"$n`". Verify the process name and call the cmdlet again."
    }
}

function global:Stop-Process {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [int[]] $Id,
        [string[]] $Name,
        [switch] $Force
    )
    foreach ($i in $Id) {
        try { $null = Invoke-WmcoSimCall 'process.kill' @{ id = $i } } catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message }
    }
    foreach ($n in $Name) {
        Write-WmcoSimError $PSCmdlet "Cannot find a process with the name `"$n`". Verify the process name and call the cmdlet again."
    }
}
