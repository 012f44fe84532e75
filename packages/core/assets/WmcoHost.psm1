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
#                (when asked) the inbound Allow rules covering given ports, the sub-folders of the
#                prunable roots, hybrid-overlay's client certificate files, and which operator folders it
#                would refuse (Get-WmcoFolderProblem)
#   apply        first makes the operator's folders its own (an existing one a non-administrator could
#                have planted is refused, a missing one created with the operator's ACL), then runs
#                one ordered plan of steps (service pre-scripts run for their effect among them, right
#                before their service starts; services of one dependency level start together); stops at
#                the first failing step; with
#                "rebootWhenRequired" it schedules the restart a step asked for before answering
#   deconfigure  delete services, env vars, the Root certificates and firewall rules the module marked as its
#                own, HNS networks and directories (revert before joining); removes
#                at most one HNS network per call and then answers "reconnect" (the operator calls again)
#   reboot       schedule a restart a few seconds out and report the current boot time

Set-StrictMode -Version 3.0
# Windows PowerShell 5.1 resolves a type name only in loaded assemblies, and in a fresh session nothing has
# loaded System.ServiceProcess before the first New-Object ServiceController (or the TimeoutException catch).
Add-Type -AssemblyName System.ServiceProcess

$script:ProtocolVersion = 1
$script:ManagedTag = 'OpenShift managed'
$script:StagingDir = 'C:\ProgramData\wmco\staging'
# The operator's folders: SYSTEM and Administrators only, before anything is written (HostPaths.protectedRoots).
$script:ProtectedRoots = @('C:\ProgramData\wmco', 'C:\k', 'C:\Temp')
# Folders whose sub-folders the operator owns outright and may remove (HostPaths.prunableRoots).
$script:PrunableRoots = @('C:\k\containerd\registries')
# The CNI plugins' state (host-local IPAM allocations): cleared before a configuration (OCPBUGS-65625).
$script:CniStateDir = 'C:\var\lib\cni'
# hybrid-overlay's certificate folder (its --cert-dir, HostPaths.clientCertificates) and the names of the client
# certificates it writes there at each rotation and never deletes (CLIENT_CERTIFICATE_NAME in host-paths.ts).
$script:ClientCertDir = 'C:\k\cni\config'
$script:ClientCertName = '^ovnkube-client-[A-Za-z0-9._-]+\.pem$'
$script:SystemSid = 'S-1-5-18'
$script:AdministratorsSid = 'S-1-5-32-544'
$script:TrustedInstallerSid = 'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464'
$script:CreatorOwnerSid = 'S-1-3-0'
# Who may hold write access to an existing operator folder (CREATOR OWNER only reaches what its creator, one of
# the others, creates) and who may own it. Anyone else able to write there could plant what runs as SYSTEM.
$script:FolderWriters = @($script:SystemSid, $script:AdministratorsSid, $script:TrustedInstallerSid, $script:CreatorOwnerSid)
$script:FolderOwners = @($script:SystemSid, $script:AdministratorsSid)
# The FileSystemRights bits that change what a folder holds or who may (System.Security.AccessControl.FileSystemRights;
# GENERIC_ALL and GENERIC_WRITE as they appear in inherit-only entries).
$script:FolderWriteRights = [ordered]@{
    CreateFiles = 0x2; CreateDirectories = 0x4; WriteExtendedAttributes = 0x10; DeleteSubdirectoriesAndFiles = 0x40
    WriteAttributes = 0x100; Delete = 0x10000; ChangePermissions = 0x40000; TakeOwnership = 0x80000
    GenericAll = 0x10000000; GenericWrite = 0x40000000
}
# Display names of well-known SIDs, for messages only (decisions are by SID; names are localized on Windows).
$script:WellKnownSidNames = @{
    'S-1-1-0' = 'Everyone'; 'S-1-3-4' = 'OWNER RIGHTS'; 'S-1-5-4' = 'NT AUTHORITY\INTERACTIVE'
    'S-1-5-7' = 'NT AUTHORITY\ANONYMOUS LOGON'; 'S-1-5-11' = 'NT AUTHORITY\Authenticated Users'
    'S-1-5-18' = 'NT AUTHORITY\SYSTEM'; 'S-1-5-32-544' = 'BUILTIN\Administrators'; 'S-1-5-32-545' = 'BUILTIN\Users'
    'S-1-5-32-546' = 'BUILTIN\Guests'; 'S-1-5-32-547' = 'BUILTIN\Power Users'
}
$script:EnvKey = 'HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
$script:ServiceTimeout = [TimeSpan]::FromMinutes(2)
# A starting service is looked at every half second (240 looks: the two minutes), so one that stops again is
# reported at once. A deleted service is looked for up to 60 times, 500 ms apart (30 s), until it is gone.
$script:ServicePollInterval = [TimeSpan]::FromMilliseconds(500)
$script:ServicePolls = 240
$script:DeletePolls = 60
# Volatile (in memory only): gone after every restart, see Get-WmcoBootId.
$script:BootIdKey = 'SOFTWARE\wmco-boot'
# The most characters one pre-script may return (EVALUATE_OUTPUT_MAX in host/protocol/evaluate.ts).
$script:EvaluateOutputMax = 4096

# The path .NET sees for a PowerShell path. On Windows the same path; where the module runs under a
# simulated host's engine (pwsh with drive C: mapped to the host's folder), the file behind drive C:.
# Every .NET file call of the module takes its path from here.
function Get-WmcoNativePath {
    param(
        [string] $Path
    )
    return $ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($Path)
}

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
    # DependOnService as written (ServicesDependedOn throws for a dependency that no longer exists).
    $deps = Get-WmcoServiceMultiString $Service.Name 'DependOnService'
    if ($null -eq $deps) { $deps = [string[]]@() }
    $description = ''
    if ($null -ne $Service.Description) { $description = $Service.Description }
    $state = [ordered]@{
        name         = $Service.Name
        state        = ($Service.State.ToLowerInvariant() -replace ' ', '-')
        startType    = (ConvertTo-WmcoStartType $Service.StartMode)
        commandLine  = $Service.PathName
        dependencies = $deps
        description  = $description
    }
    $environment = Get-WmcoServiceEnvironment $Service.Name
    if ($null -ne $environment) { $state['environment'] = $environment }
    return $state
}

# A REG_MULTI_SZ value under the service's key as a string array (kept whole: `return ,`), $null when absent.
function Get-WmcoServiceMultiString {
    param(
        [string] $Name,
        [string] $ValueName
    )
    $key = Get-Item -LiteralPath "HKLM:\SYSTEM\CurrentControlSet\Services\$Name" -ErrorAction SilentlyContinue
    if ($null -eq $key) { return $null }
    $value = $key.GetValue($ValueName, $null)
    if ($null -eq $value) { return $null }
    return , ([string[]]@($value))
}

# The service's own environment: REG_MULTI_SZ `Environment` under its service key, read by the SCM each
# time the service starts (so a restart, not a reboot, applies a change). $null when there is none.
function Get-WmcoServiceEnvironment {
    param(
        [string] $Name
    )
    $value = Get-WmcoServiceMultiString $Name 'Environment'
    if ($null -eq $value) { return $null }
    return , $value
}

function Set-WmcoServiceEnvironment {
    param(
        [string] $Name,
        [string[]] $Environment
    )
    $path = "HKLM:\SYSTEM\CurrentControlSet\Services\$Name"
    if (-not (Test-Path -LiteralPath $path)) { throw "service '$Name' does not exist" }
    if ($Environment.Count -eq 0) {
        Remove-ItemProperty -LiteralPath $path -Name 'Environment' -ErrorAction SilentlyContinue
        return
    }
    Set-ItemProperty -LiteralPath $path -Name 'Environment' -Value $Environment -Type MultiString
}

# Stops a service after every running service that depends on it (dependents first), then waits for
# its process to exit, killing it after two minutes, so its binary can be replaced. WaitForStatus throws
# System.ServiceProcess.TimeoutException when the two minutes pass: then the process is killed (as upstream
# does, OCPBUGS-6611) and the SCM, which sees it exit, reports Stopped.
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
    # A service still starting refuses Stop() (1061, "cannot accept control messages"): let its start end.
    if ($controller.Status -eq 'StartPending') {
        try { $controller.WaitForStatus('Running', $script:ServiceTimeout) } catch { $null = $_ }
        $controller.Refresh()
        if ($controller.Status -eq 'Stopped') { return }
    }
    $processId = (Get-WmcoCimServices | Where-Object { $_.Name -eq $Name }).ProcessId
    if ($controller.Status -ne 'StopPending') { $controller.Stop() }
    try {
        $controller.WaitForStatus('Stopped', $script:ServiceTimeout)
    } catch [System.ServiceProcess.TimeoutException] {
        if (-not ($processId -gt 0)) { throw "service '$Name' did not stop within $($script:ServiceTimeout.TotalSeconds) s" }
        Stop-Process -Id $processId -Force -ErrorAction SilentlyContinue
        $controller.WaitForStatus('Stopped', $script:ServiceTimeout)
    }
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
    Start-WmcoServices @($Name)
}

# A message with the reason .NET wraps inside (ServiceController.Start: "Cannot start service x" around the
# Win32 error text).
function Get-WmcoErrorText {
    param(
        [System.Exception] $Exception
    )
    $text = $Exception.Message
    $inner = $Exception.InnerException
    while ($null -ne $inner) {
        if (-not $text.Contains($inner.Message)) { $text = "${text}: $($inner.Message)" }
        $inner = $inner.InnerException
    }
    return $text
}

# Why a service stopped: Win32_Service.ExitCode (a Win32 error; 1066 means the service's own code is in
# ServiceSpecificExitCode) and the system's text for it.
function Get-WmcoServiceExitReason {
    param(
        [string] $Name
    )
    $service = Get-WmcoCimServices | Where-Object { $_.Name -eq $Name } | Select-Object -First 1
    if ($null -eq $service) { return 'it no longer exists' }
    $code = [int]$service.ExitCode
    $text = ([System.ComponentModel.Win32Exception]::new($code)).Message
    if ($code -eq 1066) { return "exit code 1066, service-specific code $($service.ServiceSpecificExitCode): $text" }
    return "exit code ${code}: $text"
}

# Waits until the service runs; one that stops again fails at once with its exit code, not after the timeout.
function Wait-WmcoServiceRunning {
    param(
        [object] $Controller
    )
    $name = $Controller.ServiceName
    for ($i = 0; $i -lt $script:ServicePolls; $i++) {
        try {
            $Controller.WaitForStatus('Running', $script:ServicePollInterval)
            return
        } catch [System.ServiceProcess.TimeoutException] {
            $Controller.Refresh()
            if ($Controller.Status -eq 'Stopped') { throw "service '$name' stopped while starting: $(Get-WmcoServiceExitReason $name)" }
        }
    }
    throw "service '$name' did not reach Running within $($script:ServiceTimeout.TotalSeconds) s (status $($Controller.Status))"
}

# Starts services that do not depend on one another (one dependency level of the plan) together: Start()
# returns once the SCM has launched a service (START_PENDING), so their start-ups overlap; then each is
# waited for until Running. A service that cannot start fails the step, named in the error.
function Start-WmcoServices {
    param(
        [string[]] $Names
    )
    $pending = @()
    foreach ($name in $Names) {
        $controller = New-Object System.ServiceProcess.ServiceController -ArgumentList $name
        if ($controller.Status -eq 'Running') { continue }
        try {
            if ($controller.Status -ne 'StartPending') { $controller.Start() }
        } catch {
            throw "service '$name' did not start: $(Get-WmcoErrorText $_.Exception)"
        }
        $pending += $controller
    }
    foreach ($controller in $pending) { Wait-WmcoServiceRunning $controller }
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
    $arguments = @{ PathName = $Step.commandLine; StartMode = $startMode }
    $dependencies = [string[]]@($Step.dependencies)
    if ($dependencies.Count -gt 0) { $arguments.ServiceDependencies = $dependencies }
    $change = Invoke-CimMethod -InputObject $svc -MethodName Change -Arguments $arguments
    if ($change.ReturnValue -ne 0) {
        throw "changing service '$($Step.name)' failed with Win32_Service.Change code $($change.ReturnValue)"
    }
    # Change leaves a parameter it is not given (or given empty) as it was; `depend= /` clears the list.
    if ($dependencies.Count -eq 0) { Clear-WmcoServiceDependencies $Step.name }
    Set-Service -Name $Step.name -Description $Step.description
}

function Clear-WmcoServiceDependencies {
    param(
        [string] $Name
    )
    $ErrorActionPreference = 'Continue'
    $output = & sc.exe config $Name depend= / 2>&1 | Out-String
    if ($LASTEXITCODE -ne 0) { throw "sc.exe config '$Name' depend= / failed ($LASTEXITCODE): $output" }
}

# sc.exe delete only marks a service for deletion; it goes once every handle to it is closed. Until then a
# CreateService of the same name fails with 1072, so deleting waits (30 s at most) for `sc.exe query` to
# answer 1060 (upstream waits the same way).
function Wait-WmcoServiceDeleted {
    param(
        [string] $Name
    )
    $ErrorActionPreference = 'Continue'
    for ($i = 0; $i -lt $script:DeletePolls; $i++) {
        $null = & sc.exe query $Name 2>&1
        if ($LASTEXITCODE -eq 1060) { return }
        Start-Sleep -Milliseconds $script:ServicePollInterval.TotalMilliseconds
    }
    throw "service '$Name' is marked for deletion but still exists after $($script:DeletePolls) checks (a process holds a handle to it)"
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
    Wait-WmcoServiceDeleted $Name
    return $true
}

# ---------------------------------------------------------------------------------------------------
# The operator's folders: owner Administrators, no inheritance from the parent, full control for SYSTEM
# and Administrators only, inherited below. Identities are SIDs, the same in every display language.
# ---------------------------------------------------------------------------------------------------

# True when the folder already has exactly that ACL.
function Test-WmcoProtected {
    param(
        [string] $Path
    )
    $acl = Get-Acl -LiteralPath $Path
    if (-not $acl.AreAccessRulesProtected) { return $false }
    $owner = $acl.GetOwner([System.Security.Principal.SecurityIdentifier]).Value
    if ($owner -ne $script:AdministratorsSid) { return $false }
    $rules = @($acl.GetAccessRules($true, $true, [System.Security.Principal.SecurityIdentifier]))
    foreach ($rule in $rules) {
        if (@($script:SystemSid, $script:AdministratorsSid) -notcontains $rule.IdentityReference.Value) { return $false }
        if ($rule.AccessControlType -ne 'Allow') { return $false }
    }
    return ($rules.Count -gt 0)
}

# "BUILTIN\Users (S-1-5-32-545)" for a well-known SID, the SID alone for any other.
function Get-WmcoSidLabel {
    param(
        [string] $Sid
    )
    if ($script:WellKnownSidNames.ContainsKey($Sid)) { return "$($script:WellKnownSidNames[$Sid]) ($Sid)" }
    return $Sid
}

# The write rights (names of $script:FolderWriteRights) that a FileSystemRights value holds; all of them: FullControl.
function Get-WmcoWriteRightNames {
    param(
        [long] $Rights
    )
    if ((($Rights -band 0x1F01FF) -eq 0x1F01FF) -or (($Rights -band 0x10000000) -ne 0)) { return @('FullControl') }
    return @($script:FolderWriteRights.Keys | Where-Object { ($Rights -band $script:FolderWriteRights[$_]) -ne 0 })
}

# The Allow entries of an existing folder's ACL (explicit and inherited, inherit-only included: they reach what
# is created inside) that give write access to a principal not in $script:FolderWriters: one per principal, its
# rights added up, in the order the ACL first names it.
function Get-WmcoForeignWriters {
    param(
        [object] $Acl
    )
    $rights = [ordered]@{}
    foreach ($rule in @($Acl.GetAccessRules($true, $true, [System.Security.Principal.SecurityIdentifier]))) {
        if ([string]$rule.AccessControlType -ne 'Allow') { continue }
        $sid = [string]$rule.IdentityReference.Value
        if ($script:FolderWriters -contains $sid) { continue }
        if (-not $rights.Contains($sid)) { $rights[$sid] = [long]0 }
        $rights[$sid] = $rights[$sid] -bor [long][int]$rule.FileSystemRights
    }
    $found = @()
    foreach ($sid in @($rights.Keys)) {
        $names = @(Get-WmcoWriteRightNames $rights[$sid])
        if ($names.Count -gt 0) { $found += [ordered]@{ sid = $sid; rights = ($names -join ', ') } }
    }
    return , $found
}

# Why the operator must not use the existing folder $Path: [ordered]@{ path; reason; fix }, or $null when it
# may (or when nothing is there). Refused: a junction, symbolic link, mount point or other reparse point; a
# file; a folder without a DACL; an owner other than Administrators or SYSTEM; write access for anyone else.
function Get-WmcoFolderProblem {
    param(
        [string] $Path
    )
    $item = Get-Item -LiteralPath $Path -Force -ErrorAction SilentlyContinue
    if ($null -eq $item) { return $null }
    $remove = 'delete it if nothing else uses it (the operator then creates it for SYSTEM and Administrators only)'
    if (($item.Attributes -band [System.IO.FileAttributes]::ReparsePoint) -ne 0) {
        $target = ''
        if ($item.PSObject.Properties.Name -contains 'Target' -and $item.Target) { $target = " to $(@($item.Target) -join ', ')" }
        $reason = "is a reparse point$target"
        if ($item.PSObject.Properties.Name -contains 'LinkType' -and $item.LinkType) { $reason = "is a $($item.LinkType)$target (a reparse point)" }
        return [ordered]@{ path = $Path; reason = $reason
            fix = "remove the link, not its target (cmd /c rmdir `"$Path`"); the operator then creates the folder for SYSTEM and Administrators only" }
    }
    if (-not $item.PSIsContainer) { return [ordered]@{ path = $Path; reason = 'is a file, not a folder'; fix = $remove } }
    $acl = Get-Acl -LiteralPath $Path
    $reset = "or, as an administrator: icacls `"$Path`" /setowner *$($script:AdministratorsSid) /T /C; icacls `"$Path`" " +
        "/inheritance:r /grant:r *$($script:SystemSid):(OI)(CI)F *$($script:AdministratorsSid):(OI)(CI)F"
    if ($acl.GetSecurityDescriptorSddlForm('Access') -match 'D:[A-Z]*NO_ACCESS_CONTROL') {
        return [ordered]@{ path = $Path; reason = 'has no DACL (everyone has full control)'; fix = "$remove, $reset" }
    }
    $writers = Get-WmcoForeignWriters $acl
    if ($writers.Count -gt 0) {
        $who = @($writers | ForEach-Object { "$(Get-WmcoSidLabel $_.sid) $($_.rights)" }) -join '; '
        $drop = @($writers | ForEach-Object { "*$($_.sid)" } | Select-Object -Unique) -join ' '
        return [ordered]@{ path = $Path; reason = "lets non-administrators write: $who"
            fix = "$remove, $reset; icacls `"$Path`" /remove:g $drop /T /C" }
    }
    $owner = $acl.GetOwner([System.Security.Principal.SecurityIdentifier])
    $ownerSid = ''
    if ($null -ne $owner) { $ownerSid = [string]$owner.Value }
    if ($script:FolderOwners -notcontains $ownerSid) {
        return [ordered]@{ path = $Path; reason = "is owned by $(Get-WmcoSidLabel $ownerSid), not Administrators or SYSTEM"
            fix = "$remove, $reset" }
    }
    return $null
}

# The one-line refusal: which folder, why, and the fix.
function Format-WmcoFolderProblem {
    param(
        [object] $Problem
    )
    return "folder $($Problem.path) $($Problem.reason), so the operator will not use it. Fix: $($Problem.fix)"
}

# The operator's ACL: owner Administrators, not inherited, full control for SYSTEM and Administrators, inherited below.
function New-WmcoOperatorAcl {
    $acl = New-Object System.Security.AccessControl.DirectorySecurity
    $acl.SetOwner((New-Object System.Security.Principal.SecurityIdentifier $script:AdministratorsSid))
    $acl.SetAccessRuleProtection($true, $false)
    foreach ($sid in @($script:SystemSid, $script:AdministratorsSid)) {
        $identity = New-Object System.Security.Principal.SecurityIdentifier $sid
        $acl.AddAccessRule((New-Object System.Security.AccessControl.FileSystemAccessRule ($identity, 'FullControl',
                    'ContainerInherit, ObjectInherit', 'None', 'Allow')))
    }
    return $acl
}

# Creates a missing folder with the operator's ACL in the same call (CreateDirectory with its security
# descriptor), so it is never open, not even for a moment.
function New-WmcoProtectedDirectory {
    param(
        [string] $Path
    )
    $info = New-Object System.IO.DirectoryInfo (Get-WmcoNativePath $Path)
    $info.Create((New-WmcoOperatorAcl))
}

# Makes the folder the operator's: a missing one is created with its ACL; an existing one is refused when
# Get-WmcoFolderProblem finds a reason, else its children lose their explicit entries and it gets the ACL.
# True when something changed.
function Protect-WmcoDirectory {
    param(
        [string] $Path
    )
    $problem = Get-WmcoFolderProblem $Path
    if ($null -ne $problem) { throw (Format-WmcoFolderProblem $problem) }
    $created = $false
    if ($null -eq (Get-Item -LiteralPath $Path -Force -ErrorAction SilentlyContinue)) {
        New-WmcoProtectedDirectory $Path
        $created = $true
        # Create keeps a folder someone else made in between: look again.
        $problem = Get-WmcoFolderProblem $Path
        if ($null -ne $problem) { throw (Format-WmcoFolderProblem $problem) }
    }
    if (Test-WmcoProtected $Path) { return $created }
    $ErrorActionPreference = 'Continue'
    $null = & icacls.exe $Path /reset /t /c /q 2>&1
    $ErrorActionPreference = 'Stop'
    Set-Acl -LiteralPath $Path -AclObject (New-WmcoOperatorAcl)
    return $true
}

# Before any apply step: every operator root exists with its ACL (a loosened one is put back).
function Initialize-WmcoDirectories {
    $done = @()
    foreach ($root in $script:ProtectedRoots) {
        if (Protect-WmcoDirectory $root) { $done += [ordered]@{ kind = 'protectDirectory'; target = $root } }
    }
    return $done
}

# First contact, before the module's own file is written: the working area and its staging folder, the
# operator's. Returns $null, or the refusal (Format-WmcoFolderProblem) for the session script to print.
function Initialize-WmcoWorkArea {
    foreach ($folder in @((Split-Path -Parent $script:StagingDir), $script:StagingDir)) {
        $problem = Get-WmcoFolderProblem $folder
        if ($null -ne $problem) { return (Format-WmcoFolderProblem $problem) }
        $null = Protect-WmcoDirectory $folder
    }
    return $null
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
    $name = Split-Path -Leaf $Path
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


# Copies $Source to $Destination, then checks the hash of the copy (not of the source): whatever happens
# to the source after the copy, the copy is what was verified. A wrong copy is deleted.
function Copy-WmcoVerifiedFile {
    param(
        [string] $Source,
        [string] $Destination,
        [string] $Sha256
    )
    if (-not (Test-Path -LiteralPath $Source -PathType Leaf)) { throw 'is missing from the staging folder' }
    Copy-Item -LiteralPath $Source -Destination $Destination -Force
    $actual = Get-WmcoFileHash $Destination
    if ($actual -ne $Sha256) {
        Remove-Item -LiteralPath $Destination -Force -ErrorAction SilentlyContinue
        Remove-Item -LiteralPath $Source -Force -ErrorAction SilentlyContinue
        throw "has SHA-256 '$actual', expected '$Sha256'"
    }
}

# Copies the staged file next to its destination (inside the operator's protected folders), verifies the
# copy, then renames it into place, so a destination is only ever the old file or the complete new one,
# and a staged file swapped between verification and use cannot reach it.
function Install-WmcoStagedFile {
    param(
        [string] $Path,
        [string] $Sha256
    )
    Expand-WmcoStagedArchive $Path $Sha256
    $staged = Join-Path $script:StagingDir $Sha256
    $null = New-Item -ItemType Directory -Force -Path (Split-Path -Parent $Path)
    $temporary = "$Path.wmco-new"
    try {
        Copy-WmcoVerifiedFile $staged $temporary $Sha256
    } catch {
        throw "staged file for '$Path' $($_.Exception.Message)"
    }
    try {
        Move-Item -LiteralPath $temporary -Destination $Path -Force
    } catch {
        Remove-Item -LiteralPath $temporary -Force -ErrorAction SilentlyContinue
        throw
    }
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
    # Until the Containers feature is active there is no HNS (hns.psm1 calls into vmcompute.dll, absent
    # then): no networks yet, rather than an observe that fails.
    try {
        if (-not (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue)) {
            if (Test-Path -LiteralPath 'C:\Temp\hns.psm1') { Import-Module 'C:\Temp\hns.psm1' -DisableNameChecking }
        }
        if (-not (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue)) { return @() }
        return @(Get-HnsNetwork | ForEach-Object { [ordered]@{ name = $_.Name; type = $_.Type; id = $_.Id } })
    } catch {
        return @()
    }
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
            # MSFT_NetProtocolPortFilter.LocalPort is string[] ('10250', '49152-65535', 'Any'): every entry.
            localPorts = [string[]]@($port.LocalPort)
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
# Arguments (node values) arrive as data: each is bound to the variable $WmcoArg_<name> of this scope, which
# the script's child scope reads. A variable in argument position is one value; PowerShell never parses it.
function Invoke-WmcoScript {
    param(
        [string] $CommandLine,
        [object] $Arguments
    )
    Set-StrictMode -Off
    $ErrorActionPreference = 'Stop'
    if ($null -ne $Arguments) {
        foreach ($argument in $Arguments.PSObject.Properties) {
            if ($argument.Name -notmatch '^[A-Za-z][A-Za-z0-9_]{0,63}$') { throw "bad argument name '$($argument.Name)'" }
            Set-Variable -Name ('WmcoArg_' + $argument.Name) -Value ([string]$argument.Value)
        }
    }
    $block = [scriptblock]::Create($CommandLine)
    $lines = @(& $block 3>$null 4>$null 5>$null 6>$null | ForEach-Object { [string]$_ })
    $output = ($lines -join "`n").Trim()
    if ($output.Length -gt $script:EvaluateOutputMax) {
        throw "the script printed $($output.Length) characters, more than the $($script:EvaluateOutputMax) a pre-script may return"
    }
    return $output
}

function Invoke-WmcoEvaluate {
    param(
        [object[]] $Entries
    )
    $results = [ordered]@{}
    foreach ($entry in $Entries) {
        try {
            $arguments = $null
            if ($entry.PSObject.Properties.Name -contains 'args') { $arguments = $entry.args }
            $output = Invoke-WmcoScript ([string]$entry.script) $arguments
            $results[[string]$entry.name] = [ordered]@{ ok = $true; output = $output }
        } catch {
            $results[[string]$entry.name] = [ordered]@{ ok = $false; error = $_.Exception.Message }
        }
    }
    return $results
}

# The sub-folder names of each requested prunable root that exists (links listed as themselves).
function Get-WmcoChildFolders {
    param(
        [string[]] $Directories
    )
    $children = [ordered]@{}
    foreach ($dir in $Directories) {
        if (-not ($script:PrunableRoots | Where-Object { $_ -eq $dir })) { throw "'$dir' is not a prunable root" }
        if (-not (Test-Path -LiteralPath $dir -PathType Container)) { continue }
        $names = @([System.IO.DirectoryInfo]::new((Get-WmcoNativePath $dir)).EnumerateDirectories() | ForEach-Object { $_.Name } |
                Sort-Object)
        $children[$dir] = [string[]]$names
    }
    return $children
}

# Removes one folder directly under a prunable root (a mirror set's registry folder that left the
# cluster), never following a link (Remove-WmcoTree). A folder that is already gone is fine.
function Remove-WmcoPrunedFolder {
    param(
        [string] $Path
    )
    $parent = Split-Path -Parent $Path
    $name = Split-Path -Leaf $Path
    $allowed = ($script:PrunableRoots | Where-Object { $_ -eq $parent }) -and
        ($name -match '^[A-Za-z0-9._-]+$') -and ($name -ne '.') -and ($name -ne '..')
    if (-not $allowed) { throw "'$Path' is not a folder directly under a prunable root" }
    $item = Get-Item -LiteralPath $Path -Force -ErrorAction SilentlyContinue
    if ($null -eq $item) { return }
    Remove-WmcoTree $item @()
}

# ---------------------------------------------------------------------------------------------------
# Machine Root store (Cert:\LocalMachine\Root). The certificates the module imports carry the FriendlyName
# $script:ManagedTag, and only those are ever removed (a Windows root or one an admin added is left).
# ---------------------------------------------------------------------------------------------------

# The requested thumbprints that are in the store, and every certificate carrying the module's mark.
function Get-WmcoRootCertificates {
    param(
        [string[]] $Thumbprints
    )
    $wanted = @($Thumbprints | ForEach-Object { $_.ToUpperInvariant() })
    return @(Get-ChildItem -LiteralPath 'Cert:\LocalMachine\Root' |
            Where-Object { $wanted -contains $_.Thumbprint.ToUpperInvariant() -or $_.FriendlyName -eq $script:ManagedTag } |
            Sort-Object Thumbprint | ForEach-Object {
                [ordered]@{ thumbprint = $_.Thumbprint.ToUpperInvariant(); managed = ($_.FriendlyName -eq $script:ManagedTag) }
            })
}

# Imports the listed certificates of a PEM bundle; one already in the store is left as it is. Every listed
# thumbprint must be in the bundle, or nothing is imported.
function Import-WmcoRootCertificates {
    param(
        [string] $Path,
        [string[]] $Thumbprints
    )
    $text = [System.IO.File]::ReadAllText((Get-WmcoNativePath $Path))
    $found = @{}
    $blocks = [regex]::Matches($text, '-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----')
    foreach ($block in $blocks) {
        try {
            $der = [Convert]::FromBase64String(($block.Groups[1].Value -replace '\s', ''))
            $cert = [System.Security.Cryptography.X509Certificates.X509Certificate2]::new($der)
            $found[$cert.Thumbprint.ToUpperInvariant()] = $cert
        } catch {
            continue
        }
    }
    $missing = @($Thumbprints | Where-Object { -not $found.ContainsKey($_.ToUpperInvariant()) })
    if ($missing.Count -gt 0) { throw "certificate(s) $($missing -join ', ') not found in '$Path'" }
    $store = [System.Security.Cryptography.X509Certificates.X509Store]::new('Root', 'LocalMachine')
    $store.Open([System.Security.Cryptography.X509Certificates.OpenFlags]::ReadWrite)
    try {
        foreach ($t in $Thumbprints) {
            if (Test-Path -LiteralPath "Cert:\LocalMachine\Root\$t") { continue }
            $cert = $found[$t.ToUpperInvariant()]
            $cert.FriendlyName = $script:ManagedTag
            $store.Add($cert)
        }
    } finally {
        $store.Close()
    }
}

# Removes one certificate the module imported; a missing one is fine, one without the mark is refused.
function Remove-WmcoRootCertificate {
    param(
        [string] $Thumbprint
    )
    if ($Thumbprint -notmatch '^[0-9A-F]{40}$') { throw "'$Thumbprint' is not a certificate thumbprint" }
    $cert = Get-Item -LiteralPath "Cert:\LocalMachine\Root\$Thumbprint" -ErrorAction SilentlyContinue
    if ($null -eq $cert) { return }
    if ($cert.FriendlyName -ne $script:ManagedTag) {
        throw "certificate $Thumbprint in the Root store was not added by the operator"
    }
    Remove-Item -LiteralPath "Cert:\LocalMachine\Root\$Thumbprint"
}

# Removes every certificate the module imported (those with its mark) and only those; their thumbprints.
function Remove-WmcoManagedRootCertificates {
    $removed = @()
    foreach ($cert in @(Get-WmcoRootCertificates @() | Where-Object { $_.managed })) {
        Remove-WmcoRootCertificate $cert.thumbprint
        $removed += $cert.thumbprint
    }
    return $removed
}

# Removes the named firewall rules the module created (Description is its mark); a rule of the same name
# without the mark, one an admin made before the join, stays. Returns the names removed.
function Remove-WmcoManagedFirewallRules {
    param(
        [string[]] $Names
    )
    $removed = @()
    foreach ($name in $Names) {
        $escaped = [WildcardPattern]::Escape($name)
        $rule = @(Get-NetFirewallRule -Name $escaped -ErrorAction SilentlyContinue) | Select-Object -First 1
        if ($null -eq $rule -or [string]$rule.Description -ne $script:ManagedTag) { continue }
        Remove-NetFirewallRule -Name $escaped
        $removed += $name
    }
    return $removed
}

# Clears the CNI plugins' state folder before a configuration (upstream Bootstrap, OCPBUGS-65625): IPAM
# allocations of an earlier configuration would otherwise stay taken. The plan asks for it only while the
# kubelet is not running, so no live pod's allocation goes. Never follows a link (Remove-WmcoTree).
function Reset-WmcoCniState {
    $item = Get-Item -LiteralPath $script:CniStateDir -Force -ErrorAction SilentlyContinue
    if ($null -eq $item) { return }
    Remove-WmcoTree $item @()
}

# The names of hybrid-overlay's client certificates (ovnkube-client-*.pem) in its certificate folder, links
# (its -current.pem) listed as themselves; none when the folder is missing. The plan keeps the newest.
function Get-WmcoClientCertificates {
    $dir = Get-WmcoNativePath $script:ClientCertDir
    if (-not [System.IO.Directory]::Exists($dir)) { return @() }
    return @([System.IO.DirectoryInfo]::new($dir).EnumerateFiles() | Where-Object { $_.Name -cmatch $script:ClientCertName } |
            ForEach-Object { $_.Name })
}

# Removes one old hybrid-overlay client certificate by name (upstream WICD prunes them after each reconcile).
# A link is removed as a link (File.Delete never follows one); a file already gone is fine.
function Remove-WmcoClientCertificate {
    param(
        [string] $Name
    )
    if ($Name -cnotmatch $script:ClientCertName) { throw "'$Name' is not a hybrid-overlay client certificate name" }
    $path = Get-WmcoNativePath (Join-Path $script:ClientCertDir $Name)
    $item = [System.IO.FileInfo]::new($path)
    if (-not (Test-WmcoLink $item) -and $item.Exists) { $item.Attributes = [System.IO.FileAttributes]::Normal }
    [System.IO.File]::Delete($path)
}

# ---------------------------------------------------------------------------------------------------
# Operations.
# ---------------------------------------------------------------------------------------------------

# An id that changes at every boot and at no other time (ADR 0032). Win32_OperatingSystem.LastBootUpTime
# is the clock minus the uptime, so it moves whenever the clock is corrected and cannot tell a reboot from a
# time sync. The id is a GUID kept in a volatile registry key: a volatile key lives in memory only, so any
# restart or power loss removes it, and the first read after a boot writes a new one. A named mutex makes
# the read-or-write one step across concurrent sessions.
function Get-WmcoBootId {
    $mutex = New-Object System.Threading.Mutex -ArgumentList $false, 'Global\wmco-boot-id'
    try {
        $null = $mutex.WaitOne()
    } catch [System.Threading.AbandonedMutexException] {
        # A session that held it ended mid-read: the mutex is ours now.
    }
    try {
        $key = [Microsoft.Win32.Registry]::LocalMachine.CreateSubKey($script:BootIdKey,
            [Microsoft.Win32.RegistryKeyPermissionCheck]::ReadWriteSubTree, [Microsoft.Win32.RegistryOptions]::Volatile)
        try {
            $id = [string]$key.GetValue('BootId', '')
            if ($id -eq '') {
                $id = [guid]::NewGuid().ToString()
                $key.SetValue('BootId', $id, [Microsoft.Win32.RegistryValueKind]::String)
            }
            return $id
        } finally {
            $key.Close()
        }
    } finally {
        $mutex.ReleaseMutex()
        $mutex.Dispose()
    }
}

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
        bootId            = (Get-WmcoBootId)
        freeDiskBytes     = [System.IO.DriveInfo]::new((Get-WmcoNativePath 'C:\')).AvailableFreeSpace
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
    if ($Request.PSObject.Properties.Name -contains 'listDirectories') {
        $state['children'] = Get-WmcoChildFolders @($Request.listDirectories)
    }
    if ($Request.PSObject.Properties.Name -contains 'rootCertificates') {
        $state['rootCertificates'] = @(Get-WmcoRootCertificates @($Request.rootCertificates))
    }
    if ($Request.PSObject.Properties.Name -contains 'clientCertificates' -and $Request.clientCertificates) {
        $state['clientCertificates'] = @(Get-WmcoClientCertificates)
    }
    if ($Request.PSObject.Properties.Name -contains 'checkFolders') {
        $state['folderProblems'] = @(foreach ($folder in @($Request.checkFolders)) {
                $problem = Get-WmcoFolderProblem $folder
                if ($null -ne $problem) { $problem }
            })
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
        'deleteService' { $null = Remove-WmcoService $Step.name }
        'startServices' { Start-WmcoServices ([string[]]@($Step.names)) }
        'runScript' {
            $arguments = $null
            if ($Step.PSObject.Properties.Name -contains 'args') { $arguments = $Step.args }
            $null = Invoke-WmcoScript ([string]$Step.script) $arguments
        }
        'setServiceEnvironment' { Set-WmcoServiceEnvironment $Step.name @($Step.environment) }
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
            # The mark: deconfigure removes a rule of this name only when it carries it (one an admin made stays).
            $null = New-NetFirewallRule -Name $Step.name -DisplayName $Step.name -Description $script:ManagedTag `
                -Direction $Step.direction -Protocol $Step.protocol -LocalPort $Step.localPort -Action Allow
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
        'removeDirectory' { Remove-WmcoPrunedFolder $Step.path }
        'importRootCertificates' { Import-WmcoRootCertificates $Step.path @($Step.thumbprints) }
        'removeRootCertificate' { Remove-WmcoRootCertificate $Step.thumbprint }
        'resetCniState' { Reset-WmcoCniState }
        'removeClientCertificate' { Remove-WmcoClientCertificate $Step.name }
        default { throw "unknown plan step kind '$($Step.kind)'" }
    }
    return $false
}

function Get-WmcoStepTarget {
    param(
        [object] $Step
    )
    if ($Step.PSObject.Properties.Name -contains 'names') { return (@($Step.names) -join ', ') }
    foreach ($field in @('path', 'name', 'thumbprint', 'destinationPrefix')) {
        if ($Step.PSObject.Properties.Name -contains $field) { return [string]$Step.$field }
    }
    return ''
}

function Invoke-WmcoApply {
    param(
        [object[]] $Steps,
        [bool] $RebootWhenRequired = $false
    )
    $done = @()
    $reboot = $false
    try {
        $done += @(Initialize-WmcoDirectories)
    } catch {
        $message = "protecting the operator's folders: $($_.Exception.Message)"
        return [ordered]@{ v = $script:ProtocolVersion; op = 'apply'; ok = $false; done = $done
            rebootRequired = $reboot; error = [ordered]@{ message = $message } }
    }
    for ($i = 0; $i -lt $Steps.Count; $i++) {
        $step = $Steps[$i]
        try {
            if (Invoke-WmcoStep $step) { $reboot = $true }
        } catch {
            $message = "step $i ($($step.kind) $(Get-WmcoStepTarget $step)): $($_.Exception.Message)"
            return [ordered]@{ v = $script:ProtocolVersion; op = 'apply'; ok = $false; done = $done
                rebootRequired = $reboot; error = [ordered]@{ message = $message; step = $i } }
        }
        if ($step.kind -eq 'placeFile') {
            $later = @($Steps | Select-Object -Skip ($i + 1) | Where-Object { $_.kind -eq 'placeFile' -and $_.sha256 -eq $step.sha256 })
            if ($later.Count -eq 0) {
                # Placed: its staged copy goes now, not when the whole apply succeeded. A resumed plan never
                # places a file already in place, so after an apply stopped later on (power lost, and the
                # services restarted on boot may leave nothing to apply) the copy would stay for good. Files
                # not placed yet stay staged, so a retry needs no new upload. Not a sweep of the staging
                # folder at the start of an apply: the join's deferred uploads stage files beside the
                # bootstrap apply for a later round (join-rounds.ts). A host stopping between the move and
                # this removal still keeps that one copy.
                Remove-Item -LiteralPath (Join-Path $script:StagingDir $step.sha256) -Force -ErrorAction SilentlyContinue
            }
        }
        $done += [ordered]@{ kind = $step.kind; target = (Get-WmcoStepTarget $step) }
    }
    $result = [ordered]@{ v = $script:ProtocolVersion; op = 'apply'; ok = $true; done = $done; rebootRequired = $reboot }
    if ($reboot -and $RebootWhenRequired) {
        $null = Invoke-WmcoReboot
        $result['rebootScheduled'] = $true
    }
    return $result
}

# True when the item is a junction, a symbolic link or another reparse point.
function Test-WmcoLink {
    param(
        [System.IO.FileSystemInfo] $Item
    )
    return (($Item.Attributes -band [System.IO.FileAttributes]::ReparsePoint) -ne 0)
}

# Removes $Item and everything under it, deepest first, except the $Keep paths and the folders that hold
# them. Never follows a junction or symbolic link: a link is removed as a link (Directory.Delete without
# recursion removes the link, not its target), so deconfigure cannot reach outside the operator's folders.
# Get-ChildItem -Recurse and Remove-Item -Recurse of Windows PowerShell 5.1 follow junctions; they are not used.
function Remove-WmcoTree {
    param(
        [System.IO.FileSystemInfo] $Item,
        [string[]] $Keep
    )
    $path = $Item.FullName
    if ($Keep | Where-Object { $_ -eq $path }) { return }
    $isDirectory = $Item -is [System.IO.DirectoryInfo]
    $isLink = Test-WmcoLink $Item
    if ($isDirectory -and -not $isLink) {
        # A child that cannot go (a locked log) stays; this folder's own delete then reports it.
        foreach ($child in @($Item.EnumerateFileSystemInfos())) {
            try { Remove-WmcoTree $child $Keep } catch { $null = $_ }
        }
        $prefix = $path + [System.IO.Path]::DirectorySeparatorChar
        if ($Keep | Where-Object { $_.StartsWith($prefix, [System.StringComparison]::OrdinalIgnoreCase) }) { return }
    }
    if ($isDirectory) {
        [System.IO.Directory]::Delete($path, $false)
        return
    }
    if (-not $isLink) { $Item.Attributes = [System.IO.FileAttributes]::Normal }
    [System.IO.File]::Delete($path)
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
    # One network per call, in the request's order (upstream: the Base network first): removing one re-plumbs
    # the NIC and may drop this SSH session, so the operator reconnects and calls again (`reconnect`).
    $networks = @(Get-WmcoHnsNetworks)
    foreach ($wanted in @($Request.hnsNetworks)) {
        $network = $networks | Where-Object { $_.name -eq $wanted } | Select-Object -First 1
        if ($null -eq $network) { continue }
        # Assigned to $null: anything a cmdlet prints would end up in this function's result.
        $null = Get-HnsNetwork | Where-Object { $_.Id -eq $network.id } | Remove-HnsNetwork
        $done += [ordered]@{ kind = 'removeHnsNetwork'; target = $network.name }
        return [ordered]@{ v = $script:ProtocolVersion; op = 'deconfigure'; ok = $true; done = $done
            rebootRequired = $reboot; reconnect = $true }
    }
    # Only in the call that finishes (after the networks), so the restart they need is scheduled by that call.
    $present = Get-WmcoEnvVars @($Request.envVars)
    foreach ($name in $present.Keys) {
        Remove-ItemProperty -LiteralPath $script:EnvKey -Name $name
        $done += [ordered]@{ kind = 'removeEnvVar'; target = $name }
        $reboot = $true
    }
    if (($Request.PSObject.Properties.Name -contains 'removeManagedRootCertificates') -and $Request.removeManagedRootCertificates) {
        foreach ($thumbprint in @(Remove-WmcoManagedRootCertificates)) {
            $done += [ordered]@{ kind = 'removeRootCertificate'; target = $thumbprint }
            # As upstream's WICD cleanup: a changed Root store takes a restart to reach every process.
            $reboot = $true
        }
    }
    if ($Request.PSObject.Properties.Name -contains 'firewallRules') {
        foreach ($rule in @(Remove-WmcoManagedFirewallRules @($Request.firewallRules))) {
            $done += [ordered]@{ kind = 'removeFirewallRule'; target = $rule }
        }
    }
    Stop-Process -Name 'containerd-shim-runhcs-v1' -Force -ErrorAction SilentlyContinue
    $keep = @($Request.keep | ForEach-Object { Get-WmcoNativePath $_ })
    foreach ($dir in $Request.directories) {
        if (-not (Test-Path -LiteralPath $dir)) { continue }
        Remove-WmcoTree (Get-Item -LiteralPath $dir -Force) $keep
        $done += [ordered]@{ kind = 'removeDirectory'; target = $dir }
    }
    if ($Request.PSObject.Properties.Name -contains 'removeIfEmpty') {
        foreach ($dir in @(Remove-WmcoEmptyFolders @($Request.removeIfEmpty))) {
            $done += [ordered]@{ kind = 'removeDirectory'; target = $dir }
        }
    }
    $result = [ordered]@{ v = $script:ProtocolVersion; op = 'deconfigure'; ok = $true; done = $done; rebootRequired = $reboot }
    # The restart scheduled from here: the operator does not connect again (and put its module back) to ask.
    if ($reboot -and ($Request.PSObject.Properties.Name -contains 'rebootWhenRequired') -and $Request.rebootWhenRequired) {
        $null = Invoke-WmcoReboot
        $result['rebootScheduled'] = $true
    }
    return $result
}

# Removes each listed folder that is empty (in order, so a parent listed after its child goes too); one with
# anything in it, a link, or a missing one stays as it is. Returns the folders removed.
function Remove-WmcoEmptyFolders {
    param(
        [string[]] $Paths
    )
    $removed = @()
    foreach ($path in $Paths) {
        $item = Get-Item -LiteralPath $path -Force -ErrorAction SilentlyContinue
        if ($null -eq $item -or $item -isnot [System.IO.DirectoryInfo] -or (Test-WmcoLink $item)) { continue }
        if (@($item.EnumerateFileSystemInfos()).Count -gt 0) { continue }
        [System.IO.Directory]::Delete($item.FullName, $false)
        $removed += $path
    }
    return $removed
}

function Invoke-WmcoReboot {
    $boot = (Get-CimInstance -ClassName Win32_OperatingSystem).LastBootUpTime.ToUniversalTime().ToString('o')
    $bootId = Get-WmcoBootId
    # A few seconds' grace so this answer reaches the operator before sshd goes down.
    $null = & shutdown.exe /r /t 3 /d p:4:1 /c 'wmco: reboot requested by the operator'
    return [ordered]@{ v = $script:ProtocolVersion; op = 'reboot'; ok = $true; lastBootTime = $boot; bootId = $bootId }
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
            'apply' {
                $rebootWhenRequired = ($request.PSObject.Properties.Name -contains 'rebootWhenRequired') -and
                    ($request.rebootWhenRequired -eq $true)
                $result = Invoke-WmcoApply @($request.steps) $rebootWhenRequired
            }
            'deconfigure' { $result = Invoke-WmcoDeconfigure $request }
            'reboot' { $result = Invoke-WmcoReboot }
            default { throw "unknown operation '$op'" }
        }
    } catch {
        $result = [ordered]@{ v = $script:ProtocolVersion; op = $op; ok = $false; error = [ordered]@{ message = $_.Exception.Message } }
    }
    return ($result | ConvertTo-Json -Depth 12 -Compress)
}

Export-ModuleMember -Function @('Invoke-WmcoHost', 'Initialize-WmcoWorkArea')
