# The mocks of the Pester suite: every Windows-only command WmcoHost.psm1 calls, answered from the fake
# machine in $global:WmcoFake (dot-sourced by WindowsFakes.ps1).

# Mocks every Windows-only command the module calls with the fake machine in $global:WmcoFake (Reset-FakeWindows
# gives each test a fresh one). Called once in a BeforeAll: the mocks are that block's.
function Use-FakeWindows {
    $m = @{ ModuleName = 'WmcoHost' }
    Use-FakeDriveC
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
    # The boot id lives in a volatile HKLM key through Microsoft.Win32.Registry (Windows only): mocked here,
    # tested on Windows alone (Operations.Tests.ps1, Get-WmcoBootId).
    Mock @m Get-WmcoBootId { $global:WmcoFake.BootId }
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
        New-FakeAccessRule $ArgumentList[0].Value ([string]$ArgumentList[4]) ([string]$ArgumentList[1])
    }
    # DirectoryInfo.Create(DirectorySecurity) (.NET Framework; .NET on Linux has only Create()): the folder is
    # made, and the ACL it was made with is what Get-Acl reads for it.
    Mock @m New-Object -ParameterFilter { $TypeName -eq 'System.IO.DirectoryInfo' } {
        $info = [pscustomobject]@{ FullName = [string]@($ArgumentList)[0] }
        $info | Add-Member -MemberType ScriptMethod -Name Create -Value {
            param($Security)
            $null = [System.IO.Directory]::CreateDirectory($this.FullName)
            $global:WmcoFake.Acls[$this.FullName] = $Security
            $global:WmcoFake.Calls.Add("DirectoryInfo.Create $($this.FullName)")
        }
        $info
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
        $global:WmcoFake.Firewall.Add((New-FakeFirewallRule $Name $Protocol $LocalPort $Direction $DisplayName -Description $Description))
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
        if ($null -eq $acl) { $acl = $global:WmcoFake.Acls[$ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($LiteralPath[0])] }
        if ($null -eq $acl) {
            # A folder an administrator made with New-Item under C:\ of Windows Server: owner Administrators,
            # entries inherited from C:\ (Users may read, and create folders and files inside).
            $acl = [FakeAcl]::new()
            $acl.Owner = 'S-1-5-32-544'
            $acl.Rules = @((New-FakeAccessRule 'S-1-5-18'), (New-FakeAccessRule 'S-1-5-32-544'),
                (New-FakeAccessRule 'S-1-5-32-545' -Rights 0x1200A9), (New-FakeAccessRule 'S-1-5-32-545' -Rights 0x6))
        }
        $acl
    }
    Mock @m Set-Acl { $global:WmcoFake.Acls[$LiteralPath[0]] = $AclObject; $global:WmcoFake.Calls.Add("Set-Acl $($LiteralPath[0])") }
}

# Drive C: exists on every Windows host; the module's .NET calls read it through Get-WmcoNativePath (the free
# space of C:\ among them). Off Windows it is a folder of its own, mapped once for the whole run.
function Use-FakeDriveC {
    if ($null -ne (Get-PSDrive -Name C -ErrorAction SilentlyContinue)) { return }
    $root = Join-Path ([System.IO.Path]::GetTempPath()) "wmco-pester-c-$PID"
    $null = New-Item -ItemType Directory -Force -Path $root
    $null = New-PSDrive -Name C -PSProvider FileSystem -Root $root -Scope Global
}
