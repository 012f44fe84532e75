# WmcoHost.psm1: the wmco operator's host module for Windows Server 2019, 2022 and 2025.
#
# The operator uploads this file once per version (its name carries its content hash) and runs
#   powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand <...>
# whose script imports the module and calls Invoke-WmcoHost with a JSON request read from stdin.
# Every operation answers with one line of JSON on stdout. Nothing the user typed ever reaches a
# command line: names, paths and values arrive inside the JSON and are passed as literal arguments.
#
# Operations (request field "op"; schemas in @wmco/core host/protocol, protocol version 1):
#   observe      runs the request's "evaluate" scripts (service pre-scripts) first, then reports hashes of
#                managed files, services, env vars, routes, HNS networks, firewall rules, hostname, OS
#                build, Containers feature, last boot time, free disk, default shell, script results, and
#                (when asked) the inbound Allow rules covering given ports
#   apply        one ordered plan of steps; stops at the first failing step
#   deconfigure  delete services, env vars, HNS networks and directories (revert before joining)
#   reboot       schedule a restart a few seconds out and report the current boot time

Set-StrictMode -Version 3.0

$script:ProtocolVersion = 1
$script:ManagedTag = 'OpenShift managed'
$script:StagingDir = 'C:\ProgramData\wmco\staging'
$script:EnvKey = 'HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
$script:ServiceTimeout = [TimeSpan]::FromMinutes(2)

# ---------------------------------------------------------------------------------------------------
# Services. Existence is decided by sc.exe error 1060 (ERROR_SERVICE_DOES_NOT_EXIST), which is the same
# number in every display language; output text is never matched (OCPBUGS-54224).
# ---------------------------------------------------------------------------------------------------

function Test-WmcoService {
    param(
        [string] $Name
    )
    # Windows PowerShell 5.1 turns a native command's stderr into terminating errors under 'Stop'.
    $ErrorActionPreference = 'Continue'
    $output = & sc.exe qc $Name 2>&1 | Out-String
    if ($LASTEXITCODE -eq 1060 -or $output -match '\b1060\b') { return $false }
    return $true
}

function ConvertTo-WmcoStartType {
    param(
        [string] $StartMode
    )
    switch ($StartMode) {
        'Auto' { return 'auto' }
        'Manual' { return 'demand' }
        'Disabled' { return 'disabled' }
        'Boot' { return 'boot' }
        default { return 'system' }
    }
}

# All services in one CIM query; filtered in PowerShell, never in a WQL string, so a name cannot change
# the query.
function Get-WmcoCimServices {
    return @(Get-CimInstance -ClassName Win32_Service)
}

function Get-WmcoServiceState {
    param(
        [object] $Service
    )
    $controller = New-Object System.ServiceProcess.ServiceController -ArgumentList $Service.Name
    $deps = @($controller.ServicesDependedOn | ForEach-Object { $_.ServiceName })
    $description = ''
    if ($null -ne $Service.Description) { $description = $Service.Description }
    return [ordered]@{
        name         = $Service.Name
        state        = ($Service.State.ToLowerInvariant() -replace ' ', '-')
        startType    = (ConvertTo-WmcoStartType $Service.StartMode)
        commandLine  = $Service.PathName
        dependencies = $deps
        description  = $description
    }
}

# Stops a service after every running service that depends on it (dependents first), then waits for
# its process to exit, killing it after two minutes, so its binary can be replaced.
function Stop-WmcoService {
    param(
        [string] $Name
    )
    if (-not (Test-WmcoService $Name)) { return }
    $controller = New-Object System.ServiceProcess.ServiceController -ArgumentList $Name
    foreach ($dependent in $controller.DependentServices) {
        Stop-WmcoService $dependent.ServiceName
    }
    $controller.Refresh()
    if ($controller.Status -eq 'Stopped') { return }
    $processId = (Get-WmcoCimServices | Where-Object { $_.Name -eq $Name }).ProcessId
    if ($controller.Status -ne 'StopPending') { $controller.Stop() }
    $controller.WaitForStatus('Stopped', $script:ServiceTimeout)
    if ($processId -gt 0) {
        $process = Get-Process -Id $processId -ErrorAction SilentlyContinue
        if ($null -ne $process -and -not $process.WaitForExit(120000)) {
            Stop-Process -Id $processId -Force
        }
    }
}

function Start-WmcoService {
    param(
        [string] $Name
    )
    $controller = New-Object System.ServiceProcess.ServiceController -ArgumentList $Name
    if ($controller.Status -eq 'Running') { return }
    if ($controller.Status -ne 'StartPending') { $controller.Start() }
    $controller.WaitForStatus('Running', $script:ServiceTimeout)
}

function Set-WmcoServiceConfig {
    param(
        [object] $Step
    )
    $startMode = @{ auto = 'Automatic'; demand = 'Manual'; disabled = 'Disabled' }[$Step.startType]
    if (-not (Test-WmcoService $Step.name)) {
        # New-Service calls CreateService directly: the command line is passed as one value, unquoted.
        $create = @{
            Name           = $Step.name
            BinaryPathName = $Step.commandLine
            StartupType    = $startMode
            Description    = $Step.description
        }
        # -DependsOn refuses an empty list.
        if (@($Step.dependencies).Count -gt 0) { $create.DependsOn = [string[]]@($Step.dependencies) }
        $null = New-Service @create
        return
    }
    # Win32_Service.Change takes the binary path and dependencies as values, like ChangeServiceConfig.
    $svc = Get-WmcoCimServices | Where-Object { $_.Name -eq $Step.name }
    $change = Invoke-CimMethod -InputObject $svc -MethodName Change -Arguments @{
        PathName           = $Step.commandLine
        StartMode          = $startMode
        ServiceDependencies = [string[]]@($Step.dependencies)
    }
    if ($change.ReturnValue -ne 0) {
        throw "changing service '$($Step.name)' failed with Win32_Service.Change code $($change.ReturnValue)"
    }
    Set-Service -Name $Step.name -Description $Step.description
}

function Remove-WmcoService {
    param(
        [string] $Name
    )
    if (-not (Test-WmcoService $Name)) { return $false }
    Stop-WmcoService $Name
    $ErrorActionPreference = 'Continue'
    $output = & sc.exe delete $Name 2>&1 | Out-String
    if ($LASTEXITCODE -ne 0 -and $LASTEXITCODE -ne 1060) {
        throw "sc.exe delete '$Name' failed ($LASTEXITCODE): $output"
    }
    return $true
}

# ---------------------------------------------------------------------------------------------------
# Files, environment, network.
# ---------------------------------------------------------------------------------------------------

function Get-WmcoFileHash {
    param(
        [string] $Path
    )
    if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) { return $null }
    return (Get-FileHash -LiteralPath $Path -Algorithm SHA256).Hash.ToLowerInvariant()
}

# Upstream's payload layout: a file may be staged compressed, as '<sha256>.tar.gz' holding one entry named
# like its destination. tar.exe (bsdtar, in System32 since Windows Server 2019) extracts it into a fresh
# folder inside the staging folder; the file found there becomes the staged '<sha256>', whose hash the
# caller checks before anything moves into place. On any failure the archive and the folder are removed,
# so nothing half-written is left and the next round uploads again.
function Expand-WmcoStagedArchive {
    param(
        [string] $Path,
        [string] $Sha256
    )
    $staged = Join-Path $script:StagingDir $Sha256
    $archive = "$staged.tar.gz"
    if ((Test-Path -LiteralPath $staged -PathType Leaf) -or -not (Test-Path -LiteralPath $archive -PathType Leaf)) { return }
    $folder = "$staged.extract"
    $name = [System.IO.Path]::GetFileName($Path)
    try {
        if (Test-Path -LiteralPath $folder) { Remove-Item -LiteralPath $folder -Recurse -Force }
        $null = New-Item -ItemType Directory -Force -Path $folder
        $tar = Join-Path $env:SystemRoot 'System32\tar.exe'
        if (-not (Test-Path -LiteralPath $tar -PathType Leaf)) { throw "tar.exe is missing ($tar); Windows Server 2019 or later ships it" }
        # Continue: under Stop, Windows PowerShell 5.1 turns a native command's stderr line into an error.
        $ErrorActionPreference = 'Continue'
        $output = & $tar -x -z -f $archive -C $folder 2>&1 | Out-String
        $ErrorActionPreference = 'Stop'
        if ($LASTEXITCODE -ne 0) { throw "tar.exe could not extract the archive for '$Path' (exit $LASTEXITCODE): $output" }
        $extracted = Join-Path $folder $name
        if (-not (Test-Path -LiteralPath $extracted -PathType Leaf)) { throw "the archive for '$Path' does not hold a file named '$name'" }
        Move-Item -LiteralPath $extracted -Destination $staged -Force
    } finally {
        Remove-Item -LiteralPath $folder -Recurse -Force -ErrorAction SilentlyContinue
        Remove-Item -LiteralPath $archive -Force -ErrorAction SilentlyContinue
    }
}

# Copies the staged file next to its destination, checks the hash, then renames it into place, so a
# destination is only ever the old file or the complete new one.
function Install-WmcoStagedFile {
    param(
        [string] $Path,
        [string] $Sha256
    )
    Expand-WmcoStagedArchive $Path $Sha256
    $staged = Join-Path $script:StagingDir $Sha256
    $actual = Get-WmcoFileHash $staged
    if ($actual -ne $Sha256) {
        Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue
        throw "staged file for '$Path' has SHA-256 '$actual', expected '$Sha256'"
    }
    $null = New-Item -ItemType Directory -Force -Path ([System.IO.Path]::GetDirectoryName($Path))
    $temporary = "$Path.wmco-new"
    Copy-Item -LiteralPath $staged -Destination $temporary -Force
    Move-Item -LiteralPath $temporary -Destination $Path -Force
}

function Get-WmcoEnvVars {
    param(
        [string[]] $Names
    )
    $values = [ordered]@{}
    $key = Get-Item -LiteralPath $script:EnvKey
    foreach ($name in $Names) {
        $value = $key.GetValue($name, $null, 'DoNotExpandEnvironmentNames')
        if ($null -ne $value) { $values[$name] = [string]$value }
    }
    return $values
}

function Get-WmcoHnsNetworks {
    # Windows Server 2019 has no HostNetworkingService module; upstream ships hns.psm1 to C:\Temp.
    if (-not (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue)) {
        if (Test-Path -LiteralPath 'C:\Temp\hns.psm1') { Import-Module 'C:\Temp\hns.psm1' -DisableNameChecking }
    }
    if (-not (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue)) { return @() }
    return @(Get-HnsNetwork | ForEach-Object { [ordered]@{ name = $_.Name; type = $_.Type; id = $_.Id } })
}

function Get-WmcoFirewallRules {
    param(
        [string[]] $Names
    )
    $rules = @()
    foreach ($name in $Names) {
        $rule = Get-NetFirewallRule -Name ([WildcardPattern]::Escape($name)) -ErrorAction SilentlyContinue
        if ($null -eq $rule) { continue }
        $port = Get-NetFirewallPortFilter -AssociatedNetFirewallRule $rule
        $rules += [ordered]@{
            name      = $name
            protocol  = [string]$port.Protocol
            localPort = [int]$port.LocalPort
            direction = [string]$rule.Direction
        }
    }
    return $rules
}

# True when a port filter's LocalPort values ('Any', '10250', '49152-65535', ...) include $Port.
function Test-WmcoPortCovered {
    param(
        [string[]] $Values,
        [int] $Port
    )
    foreach ($value in $Values) {
        if ($value -eq 'Any') { return $true }
        if ($value -match '^(\d+)-(\d+)$') {
            if ($Port -ge [int]$Matches[1] -and $Port -le [int]$Matches[2]) { return $true }
        } elseif ($value -match '^\d+$' -and [int]$value -eq $Port) { return $true }
    }
    return $false
}

# For each requested port, the display names of the enabled inbound Allow rules of the active policy
# (local and group policy) that cover it, whatever their names (wmco preflight).
function Get-WmcoFirewallPorts {
    param(
        [object[]] $Ports
    )
    if ($Ports.Count -eq 0) { return @() }
    $names = @{}
    Get-NetFirewallRule -PolicyStore ActiveStore -Direction Inbound -Enabled True -Action Allow -ErrorAction SilentlyContinue |
        ForEach-Object { $names[[string]$_.Name] = [string]$_.DisplayName }
    $filters = @(Get-NetFirewallPortFilter -PolicyStore ActiveStore -ErrorAction SilentlyContinue |
            Where-Object { $names.ContainsKey([string]$_.InstanceID) })
    $result = @()
    foreach ($port in $Ports) {
        $covering = @($filters | Where-Object {
                ([string]$_.Protocol -eq [string]$port.protocol -or [string]$_.Protocol -eq 'Any') -and
                (Test-WmcoPortCovered @($_.LocalPort) ([int]$port.localPort))
            } | ForEach-Object { $names[[string]$_.InstanceID] } | Sort-Object -Unique)
        $result += [ordered]@{ protocol = [string]$port.protocol; localPort = [int]$port.localPort; rules = $covering }
    }
    return $result
}

# ---------------------------------------------------------------------------------------------------
# Pre-scripts. Each script is one command line from the request (never from a command line of ours); it
# runs in its own child scope, in order, before the state is collected, so files it writes are observed.
# ---------------------------------------------------------------------------------------------------

# Runs one script; its output objects become strings, one per line, and the whole is trimmed.
# Decision: any error fails the script (ErrorActionPreference Stop), where a bare powershell.exe would
# print a non-terminating error and go on with an empty value, which would start a service with an empty
# NODE_IP. Strict mode is off, as in a fresh powershell.exe. Warning, verbose, debug and information
# streams are dropped so nothing but the result line reaches stdout.
function Invoke-WmcoScript {
    param(
        [string] $CommandLine
    )
    Set-StrictMode -Off
    $ErrorActionPreference = 'Stop'
    $block = [scriptblock]::Create($CommandLine)
    $lines = @(& $block 3>$null 4>$null 5>$null 6>$null | ForEach-Object { [string]$_ })
    return ($lines -join "`n").Trim()
}

function Invoke-WmcoEvaluate {
    param(
        [object[]] $Entries
    )
    $results = [ordered]@{}
    foreach ($entry in $Entries) {
        try {
            $output = Invoke-WmcoScript ([string]$entry.script)
            $results[[string]$entry.name] = [ordered]@{ ok = $true; output = $output }
        } catch {
            $results[[string]$entry.name] = [ordered]@{ ok = $false; error = $_.Exception.Message }
        }
    }
    return $results
}

# ---------------------------------------------------------------------------------------------------
# Operations.
# ---------------------------------------------------------------------------------------------------

function Get-WmcoHostState {
    param(
        [object] $Request
    )
    # First, so that what the scripts write (network-conf.ps1's cni.conf) is in this same report.
    $evaluate = @()
    if ($Request.PSObject.Properties.Name -contains 'evaluate') { $evaluate = @($Request.evaluate) }
    $evaluated = Invoke-WmcoEvaluate $evaluate
    $wanted = @($Request.services)
    $services = @(Get-WmcoCimServices |
            Where-Object { $wanted -contains $_.Name -or ($null -ne $_.Description -and $_.Description.Contains($script:ManagedTag)) } |
            Sort-Object Name | ForEach-Object { Get-WmcoServiceState $_ })
    $files = @(foreach ($path in $Request.files) {
            $hash = Get-WmcoFileHash $path
            if ($null -ne $hash) { [ordered]@{ path = $path; sha256 = $hash } }
        })
    $directories = @($Request.directories | Where-Object { Test-Path -LiteralPath $_ -PathType Container })
    $staged = @()
    if (Test-Path -LiteralPath $script:StagingDir) {
        $staged = @(Get-ChildItem -LiteralPath $script:StagingDir -File |
                Where-Object { $_.Name -match '^[0-9a-f]{64}(\.tar\.gz)?$' } | ForEach-Object { $_.Name.Substring(0, 64) } |
                Sort-Object -Unique)
    }
    $version = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'
    # OpenSSH's DefaultShell value is absent when cmd.exe is the default (reference ecosystem §5.2).
    $shell = ''
    $sshKey = Get-Item -LiteralPath 'HKLM:\SOFTWARE\OpenSSH' -ErrorAction SilentlyContinue
    if ($null -ne $sshKey) { $shell = [string]$sshKey.GetValue('DefaultShell', '') }
    $os = Get-CimInstance -ClassName Win32_OperatingSystem
    $containers = Get-WindowsOptionalFeature -Online -FeatureName Containers
    $routes = @(Get-NetRoute -AddressFamily IPv4 | ForEach-Object {
            [ordered]@{ destinationPrefix = $_.DestinationPrefix; nextHop = $_.NextHop; interfaceIndex = $_.ifIndex }
        })
    $state = [ordered]@{
        v                 = $script:ProtocolVersion
        hostname          = $env:COMPUTERNAME
        os                = [ordered]@{ build = [int]$version.CurrentBuildNumber; ubr = [int]$version.UBR }
        containersFeature = ($null -ne $containers -and [string]$containers.State -eq 'Enabled')
        lastBootTime      = $os.LastBootUpTime.ToUniversalTime().ToString('o')
        freeDiskBytes     = [System.IO.DriveInfo]::new('C').AvailableFreeSpace
        defaultShell      = $(if ($shell -match 'powershell|pwsh') { 'powershell' } else { 'cmd' })
        directories       = $directories
        files             = $files
        staged            = $staged
        services          = $services
        envVars           = (Get-WmcoEnvVars @($Request.envVars))
        routes            = $routes
        hnsNetworks       = @(Get-WmcoHnsNetworks)
        firewallRules     = @(Get-WmcoFirewallRules @($Request.firewallRules))
        evaluated         = $evaluated
    }
    if ($Request.PSObject.Properties.Name -contains 'firewallPorts') {
        $state['firewallPorts'] = @(Get-WmcoFirewallPorts @($Request.firewallPorts))
    }
    return $state
}

# Performs one plan step; returns $true when the step needs a reboot to take effect.
function Invoke-WmcoStep {
    param(
        [object] $Step
    )
    switch ($Step.kind) {
        'createDirectory' { $null = New-Item -ItemType Directory -Force -Path $Step.path }
        'stopService' { Stop-WmcoService $Step.name }
        'placeFile' { Install-WmcoStagedFile $Step.path $Step.sha256 }
        'createService' { Set-WmcoServiceConfig $Step }
        'configureService' { Set-WmcoServiceConfig $Step }
        'startService' { Start-WmcoService $Step.name }
        'setEnvVar' {
            Set-ItemProperty -LiteralPath $script:EnvKey -Name $Step.name -Value $Step.value
            return $true
        }
        'removeEnvVar' {
            Remove-ItemProperty -LiteralPath $script:EnvKey -Name $Step.name -ErrorAction SilentlyContinue
            return $true
        }
        'addRoute' {
            $default = Get-NetRoute -DestinationPrefix '0.0.0.0/0' | Sort-Object RouteMetric | Select-Object -First 1
            $null = New-NetRoute -DestinationPrefix $Step.destinationPrefix -InterfaceIndex $default.ifIndex `
                -NextHop $default.NextHop
        }
        'addFirewallRule' {
            # Same name, other settings: replace the rule.
            Remove-NetFirewallRule -Name ([WildcardPattern]::Escape($Step.name)) -ErrorAction SilentlyContinue
            $null = New-NetFirewallRule -Name $Step.name -DisplayName $Step.name -Direction $Step.direction `
                -Protocol $Step.protocol -LocalPort $Step.localPort -Action Allow
        }
        'installFeature' {
            # Install-WindowsFeature draws a progress bar that fails in a non-interactive session.
            $ProgressPreference = 'SilentlyContinue'
            $null = Install-WindowsFeature -Name $Step.name
            return $true
        }
        'setHostname' {
            Rename-Computer -NewName $Step.name -Force -WarningAction SilentlyContinue
            return $true
        }
        default { throw "unknown plan step kind '$($Step.kind)'" }
    }
    return $false
}

function Get-WmcoStepTarget {
    param(
        [object] $Step
    )
    foreach ($field in @('path', 'name', 'destinationPrefix')) {
        if ($Step.PSObject.Properties.Name -contains $field) { return [string]$Step.$field }
    }
    return ''
}

function Invoke-WmcoApply {
    param(
        [object[]] $Steps
    )
    $done = @()
    $reboot = $false
    $used = @()
    for ($i = 0; $i -lt $Steps.Count; $i++) {
        $step = $Steps[$i]
        try {
            if (Invoke-WmcoStep $step) { $reboot = $true }
        } catch {
            $message = "step $i ($($step.kind) $(Get-WmcoStepTarget $step)): $($_.Exception.Message)"
            return [ordered]@{ v = $script:ProtocolVersion; op = 'apply'; ok = $false; done = $done
                rebootRequired = $reboot; error = [ordered]@{ message = $message; step = $i } }
        }
        if ($step.kind -eq 'placeFile') { $used += $step.sha256 }
        $done += [ordered]@{ kind = $step.kind; target = (Get-WmcoStepTarget $step) }
    }
    # Staged files are consumed only once every step succeeded, so a retry needs no new upload.
    foreach ($sha in ($used | Sort-Object -Unique)) {
        Remove-Item -LiteralPath (Join-Path $script:StagingDir $sha) -Force -ErrorAction SilentlyContinue
    }
    return [ordered]@{ v = $script:ProtocolVersion; op = 'apply'; ok = $true; done = $done; rebootRequired = $reboot }
}

function Invoke-WmcoDeconfigure {
    param(
        [object] $Request
    )
    $done = @()
    $reboot = $false
    $names = @($Request.services)
    if ($Request.removeTaggedServices) {
        $names += @(Get-WmcoCimServices |
                Where-Object { $null -ne $_.Description -and $_.Description.Contains($script:ManagedTag) } |
                ForEach-Object { $_.Name })
    }
    foreach ($name in $names) {
        if (Remove-WmcoService $name) { $done += [ordered]@{ kind = 'deleteService'; target = $name } }
    }
    $present = Get-WmcoEnvVars @($Request.envVars)
    foreach ($name in $present.Keys) {
        Remove-ItemProperty -LiteralPath $script:EnvKey -Name $name
        $done += [ordered]@{ kind = 'removeEnvVar'; target = $name }
        $reboot = $true
    }
    foreach ($network in (Get-WmcoHnsNetworks)) {
        if (@($Request.hnsNetworks) -contains $network.name) {
            # Assigned to $null: anything a cmdlet prints would end up in this function's result.
            $null = Get-HnsNetwork | Where-Object { $_.Id -eq $network.id } | Remove-HnsNetwork
            $done += [ordered]@{ kind = 'removeHnsNetwork'; target = $network.name }
        }
    }
    Stop-Process -Name 'containerd-shim-runhcs-v1' -Force -ErrorAction SilentlyContinue
    $keep = @($Request.keep)
    foreach ($dir in $Request.directories) {
        if (-not (Test-Path -LiteralPath $dir)) { continue }
        # Deepest entries first; keep the listed files and the folders that hold them.
        Get-ChildItem -LiteralPath $dir -Recurse -Force | Sort-Object { $_.FullName.Length } -Descending |
            Where-Object { $f = $_.FullName; -not ($keep | Where-Object { $_ -eq $f -or $_.StartsWith("$f\") }) } |
            Remove-Item -Force -Recurse -ErrorAction SilentlyContinue
        if (-not ($keep | Where-Object { $_.StartsWith("$dir\") })) { Remove-Item -LiteralPath $dir -Force -Recurse }
        $done += [ordered]@{ kind = 'removeDirectory'; target = $dir }
    }
    return [ordered]@{ v = $script:ProtocolVersion; op = 'deconfigure'; ok = $true; done = $done; rebootRequired = $reboot }
}

function Invoke-WmcoReboot {
    $boot = (Get-CimInstance -ClassName Win32_OperatingSystem).LastBootUpTime.ToUniversalTime().ToString('o')
    # A few seconds' grace so this answer reaches the operator before sshd goes down.
    $null = & shutdown.exe /r /t 3 /d p:4:1 /c 'wmco: reboot requested by the operator'
    return [ordered]@{ v = $script:ProtocolVersion; op = 'reboot'; ok = $true; lastBootTime = $boot }
}

# The entry point. Parses and checks the request, runs the operation, prints one line of JSON.
function Invoke-WmcoHost {
    param(
        [Parameter(Mandatory = $true)] [string] $RequestJson
    )
    $op = 'unknown'
    # Warnings would be printed on stdout ahead of the JSON line; errors are reported inside it.
    $WarningPreference = 'SilentlyContinue'
    try {
        $request = $RequestJson | ConvertFrom-Json
        $op = [string]$request.op
        if ($request.v -ne $script:ProtocolVersion) {
            throw "protocol version $($request.v) is not supported (this module speaks $script:ProtocolVersion)"
        }
        switch ($op) {
            'observe' { $result = [ordered]@{ v = $script:ProtocolVersion; op = 'observe'; ok = $true; state = (Get-WmcoHostState $request) } }
            'apply' { $result = Invoke-WmcoApply @($request.steps) }
            'deconfigure' { $result = Invoke-WmcoDeconfigure $request }
            'reboot' { $result = Invoke-WmcoReboot }
            default { throw "unknown operation '$op'" }
        }
    } catch {
        $result = [ordered]@{ v = $script:ProtocolVersion; op = $op; ok = $false; error = [ordered]@{ message = $_.Exception.Message } }
    }
    return ($result | ConvertTo-Json -Depth 12 -Compress)
}

Export-ModuleMember -Function Invoke-WmcoHost
