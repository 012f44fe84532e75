# The fake service control manager, ServiceController, registry key and ACL of the Pester suite
# (dot-sourced by WindowsFakes.ps1). S1, S2, ... refer to the sources in SOURCES.md.

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
    # A null DACL (everyone has full control): SDDL 'D:NO_ACCESS_CONTROL', no rules.
    [bool] $NullDacl

    [object] GetOwner([type] $type) { return [pscustomobject]@{ Value = $this.Owner } }

    [object[]] GetAccessRules([bool] $explicit, [bool] $inherited, [type] $type) { return $this.Rules }

    [string] GetSecurityDescriptorSddlForm([object] $sections) {
        if ($this.NullDacl) { return 'D:NO_ACCESS_CONTROL' }
        $flag = ''
        if ($this.AreAccessRulesProtected) { $flag = 'P' }
        return "D:$flag(A;OICI;FA;;;SY)"
    }

    # What the module builds with New-Object DirectorySecurity and hands to Set-Acl.
    [void] SetOwner([object] $identity) { $this.Owner = $identity.Value }
    [void] SetAccessRuleProtection([bool] $protected, [bool] $preserve) { $this.AreAccessRulesProtected = $protected }
    [void] AddAccessRule([object] $rule) { $this.Rules += $rule }
}

# FileSystemRights as the enum's numbers: FullControl 0x1F01FF, Modify 0x1301BF, ReadAndExecute 0x1200A9;
# a rule built by the module from a name ('FullControl') keeps the name, as the real enum converts either.
function New-FakeAccessRule {
    param([string] $Sid, [string] $Type = 'Allow', [object] $Rights = 0x1F01FF)
    if ($Rights -is [string]) { $Rights = @{ FullControl = 0x1F01FF; Modify = 0x1301BF; ReadAndExecute = 0x1200A9 }[$Rights] }
    return [pscustomobject]@{ IdentityReference = [pscustomobject]@{ Value = $Sid }; AccessControlType = $Type
        FileSystemRights = [int]$Rights }
}

# A folder as Get-Item shows it: a junction or symbolic link carries ReparsePoint, LinkType and Target.
function New-FakeFolderItem {
    param([string] $LinkType = '', [string] $Target = '')
    $attributes = [System.IO.FileAttributes]::Directory
    if ($LinkType) { $attributes = $attributes -bor [System.IO.FileAttributes]::ReparsePoint }
    $item = [pscustomobject]@{ Attributes = $attributes; PSIsContainer = $true; LinkType = $null; Target = $null }
    if ($LinkType) { $item.LinkType = $LinkType; $item.Target = @($Target) }
    return $item
}
