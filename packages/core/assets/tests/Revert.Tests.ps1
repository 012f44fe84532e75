# Giving a host back as it was before the join (issue 29): deconfigure removes the Root certificates and the
# firewall rules the module marked as its own, and only those; a configuration starts from an empty CNI state.
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    function New-DeconfigureRequest {
        param([hashtable] $Extra = @{})
        $request = @{ v = 1; op = 'deconfigure'; services = @(); removeTaggedServices = $false; envVars = @()
            hnsNetworks = @(); directories = @(); keep = @() }
        foreach ($key in $Extra.Keys) { $request[$key] = $Extra[$key] }
        return $request
    }

    function Get-DoneTargets {
        param([object] $Answer, [string] $Kind)
        return @($Answer.Json.GetProperty('done').EnumerateArray() |
                Where-Object { $_.GetProperty('kind').GetString() -eq $Kind } |
                ForEach-Object { $_.GetProperty('target').GetString() })
    }
}

Describe 'WmcoHost revert' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach { Reset-FakeWindows }

    Describe 'Remove-WmcoManagedRootCertificates' {
        It 'removes every certificate it marked, leaves the others, and asks for a restart' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            $WmcoFake.Certs.Add((New-FakeCertificate ('B' * 40) 'Windows root'))
            $WmcoFake.Certs.Add((New-FakeCertificate ('C' * 40) 'OpenShift managed'))
            $WmcoFake.Certs.Add((New-FakeCertificate ('D' * 40) ''))
            $answer = Invoke-WmcoJson (New-DeconfigureRequest @{ removeManagedRootCertificates = $true })
            $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
            Get-DoneTargets $answer 'removeRootCertificate' | Should -Be @(('A' * 40), ('C' * 40))
            @($WmcoFake.Certs | ForEach-Object { $_.Thumbprint }) | Should -Be @(('B' * 40), ('D' * 40))
            $answer.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeTrue
        }
        It 'leaves the store alone when the request does not ask (and needs no restart)' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            $answer = Invoke-WmcoJson (New-DeconfigureRequest)
            $WmcoFake.Certs | Should -HaveCount 1
            $answer.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeFalse
        }
    }

    Describe 'Remove-WmcoManagedFirewallRules' {
        It 'marks the rules addFirewallRule creates' {
            $step = @{ kind = 'addFirewallRule'; name = 'ContainerLogsPort'; direction = 'Inbound'; protocol = 'TCP'; localPort = 10250 } |
                ConvertTo-Json | ConvertFrom-Json
            InModuleScope WmcoHost -Parameters @{ s = $step } { param($s) $null = Invoke-WmcoStep $s }
            @($WmcoFake.Firewall | ForEach-Object { "$($_.Rule.Name) $($_.Rule.Description)" }) | Should -Be @('ContainerLogsPort OpenShift managed')
        }
        It 'removes the named rules it made and keeps a rule of the same name someone else made' {
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'ContainerLogsPort' 'TCP' @('10250') -Description 'OpenShift managed'))
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'WindowsExporter' 'TCP' @('9182') -Description 'made by the admin'))
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'Other' 'TCP' @('80') -Description 'OpenShift managed'))
            $answer = Invoke-WmcoJson (New-DeconfigureRequest @{ firewallRules = @('ContainerLogsPort', 'WindowsExporter', 'Missing') })
            $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
            Get-DoneTargets $answer 'removeFirewallRule' | Should -Be @('ContainerLogsPort')
            @($WmcoFake.Firewall | ForEach-Object { $_.Rule.Name }) | Should -Be @('WindowsExporter', 'Other')
            $answer.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeFalse
        }
    }

    Describe 'Remove-WmcoEmptyFolders' {
        It 'removes the listed folders that are empty, in order, and leaves one with anything in it' {
            $var = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
            $lib = Join-Path $var 'lib'
            $log = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
            $null = New-Item -ItemType Directory -Path $lib, (Join-Path $log 'x')
            $answer = Invoke-WmcoJson (New-DeconfigureRequest @{ removeIfEmpty = @($lib, $var, $log, (Join-Path $TestDrive 'missing')) })
            Get-DoneTargets $answer 'removeDirectory' | Should -Be @($lib, $var)
            Test-Path $var | Should -BeFalse
            Test-Path $log | Should -BeTrue
        }
        It 'schedules the restart the revert needs when asked, and only then' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            $answer = Invoke-WmcoJson (New-DeconfigureRequest @{ removeManagedRootCertificates = $true; rebootWhenRequired = $true })
            $answer.Json.GetProperty('rebootScheduled').GetBoolean() | Should -BeTrue
            $WmcoFake.Calls | Should -Contain 'shutdown.exe /r /t 3 /d p:4:1 /c wmco: reboot requested by the operator'
        }
        It 'schedules nothing when nothing needs a restart' {
            $answer = Invoke-WmcoJson (New-DeconfigureRequest @{ removeManagedRootCertificates = $true; rebootWhenRequired = $true })
            @($answer.Json.EnumerateObject() | Where-Object { $_.Name -eq 'rebootScheduled' }).Count | Should -Be 0
            @($WmcoFake.Calls | Where-Object { $_ -like 'shutdown.exe*' }).Count | Should -Be 0
        }
        It 'removes certificates and variables only in the call that finishes, after the networks' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            $WmcoFake.Hns.Add([pscustomobject]@{ ID = 'id-base'; Name = 'BaseOVNKubernetesHybridOverlayNetwork'; Type = 'Overlay' })
            $request = New-DeconfigureRequest @{ removeManagedRootCertificates = $true; hnsNetworks = @('BaseOVNKubernetesHybridOverlayNetwork') }
            $first = Invoke-WmcoJson $request
            $WmcoFake.Certs | Should -HaveCount 1
            $first.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeFalse
            $last = Invoke-WmcoJson $request
            $WmcoFake.Certs | Should -HaveCount 0
            $last.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeTrue
        }
    }

    Describe 'Reset-WmcoCniState' {
        BeforeEach {
            $cni = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
            InModuleScope WmcoHost -Parameters @{ c = $cni } { param($c) $script:CniStateDir = $c }
        }
        It 'clears the CNI state folder with everything in it' {
            $null = New-Item -ItemType Directory -Path (Join-Path $cni 'networks' 'OVNKubernetesHybridOverlayNetwork')
            [System.IO.File]::WriteAllText((Join-Path $cni 'networks' 'OVNKubernetesHybridOverlayNetwork' '10.132.0.5'), 'c1')
            $step = @{ kind = 'resetCniState' } | ConvertTo-Json | ConvertFrom-Json
            InModuleScope WmcoHost -Parameters @{ s = $step } { param($s) Invoke-WmcoStep $s } | Should -BeFalse
            Test-Path $cni | Should -BeFalse
        }
        It 'is fine when there is no CNI state' {
            $answer = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = @(@{ kind = 'resetCniState' }) }
            $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
            Get-DoneTargets $answer 'resetCniState' | Should -Be @('')
        }
        It 'removes a link there as a link and leaves its target' {
            $target = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
            $null = New-Item -ItemType Directory -Path $target
            [System.IO.File]::WriteAllText((Join-Path $target 'keep.txt'), 'x')
            $null = New-Item -ItemType SymbolicLink -Path $cni -Target $target
            InModuleScope WmcoHost { Reset-WmcoCniState }
            Test-Path $cni | Should -BeFalse
            Test-Path (Join-Path $target 'keep.txt') | Should -BeTrue
        }
    }
}
