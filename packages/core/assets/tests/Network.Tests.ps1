# Environment variables, HNS networks, firewall rules and ports.
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest
}

Describe 'WmcoHost network' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach { Reset-FakeWindows }

    Describe 'Get-WmcoEnvVars' {
        It 'reports the <count> requested variables that are set, unexpanded' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            for ($i = 1; $i -le $count; $i++) { $WmcoFake.EnvVars["VAR$i"] = "%SystemRoot%\v$i" }
            $names = @(1..3 | ForEach-Object { "VAR$_" }) + @('UNSET')
            $values = InModuleScope WmcoHost -Parameters @{ n = $names } { param($n) Get-WmcoEnvVars $n }
            $values.Count | Should -Be $count
            if ($count -gt 0) { $values['VAR1'] | Should -Be '%SystemRoot%\v1' }
        }
    }

    Describe 'Get-WmcoHnsNetworks' {
        It 'reports <count> networks with name, type and id' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            for ($i = 1; $i -le $count; $i++) {
                $WmcoFake.Hns.Add([pscustomobject]@{ ID = "0000000$i-0000-0000-0000-000000000000"; Name = "net$i"; Type = 'Overlay' })
            }
            $networks = InModuleScope WmcoHost { , @(Get-WmcoHnsNetworks) }
            @($networks).Count | Should -Be $count
            if ($count -gt 0) { $networks[0].id | Should -Be '00000001-0000-0000-0000-000000000000'; $networks[0].type | Should -Be 'Overlay' }
        }
        It 'imports C:\Temp\hns.psm1 when no HNS module is loaded (Windows Server 2019)' {
            $WmcoFake.HnsInstalled = $false
            $WmcoFake.Hns.Add([pscustomobject]@{ ID = 'id'; Name = 'net'; Type = 'Overlay' })
            @(InModuleScope WmcoHost { Get-WmcoHnsNetworks }).Count | Should -Be 1
            $WmcoFake.Calls | Should -Contain 'Import-Module hns.psm1'
        }
        It 'reports no networks when there is no HNS module at all' {
            $WmcoFake.HnsInstalled = $false
            Mock -ModuleName WmcoHost Test-Path -ParameterFilter { $LiteralPath -eq 'C:\Temp\hns.psm1' } { $false }
            @(InModuleScope WmcoHost { Get-WmcoHnsNetworks }).Count | Should -Be 0
        }
        It 'reports no networks, not a failed observe, while HNS cannot answer (hns.psm1 placed, Containers not active)' {
            $WmcoFake.HnsFailure = 'Unable to load DLL ''vmcompute.dll'': The specified module could not be found.'
            @(InModuleScope WmcoHost { Get-WmcoHnsNetworks }).Count | Should -Be 0
            $out = Invoke-WmcoJson (New-ObserveRequest)
            $out.Json.GetProperty('ok').GetBoolean() | Should -BeTrue
        }
    }

    Describe 'Get-WmcoFirewallRules' {
        It 'reports <count> rules' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $names = @('ContainerLogsPort', 'WindowsExporter', 'HybridOverlayVXLAN')
            for ($i = 0; $i -lt $count; $i++) { $WmcoFake.Firewall.Add((New-FakeFirewallRule $names[$i] -LocalPort @("$(10000 + $i)"))) }
            $rules = InModuleScope WmcoHost -Parameters @{ n = $names } { param($n) , @(Get-WmcoFirewallRules $n) }
            @($rules).Count | Should -Be $count
        }
        It 'reports every local port of a rule (LocalPort is string[]): <ports>' -TestCases @(
            @{ ports = @('10250') }, @{ ports = @('10250', '10255') }, @{ ports = @('49152-65535') }, @{ ports = @('Any') }
        ) {
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'ContainerLogsPort' 'TCP' $ports))
            $out = Invoke-WmcoJson (New-ObserveRequest @{ firewallRules = @('ContainerLogsPort') })
            $out.Json.GetProperty('ok').GetBoolean() | Should -BeTrue
            $reported = Get-JsonAt $out.Json 'state.firewallRules.0.localPorts'
            $reported.ValueKind | Should -Be 'Array'
            @($reported.EnumerateArray() | ForEach-Object { $_.GetString() }) | Should -Be $ports
            (Get-JsonAt $out.Json 'state.firewallRules.0.protocol').GetString() | Should -Be 'TCP'
            (Get-JsonAt $out.Json 'state.firewallRules.0.direction').GetString() | Should -Be 'Inbound'
        }
        It 'takes a name with wildcard characters literally' {
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'rule-a' -LocalPort @('1')))
            @(InModuleScope WmcoHost { Get-WmcoFirewallRules @('rule-?') }).Count | Should -Be 0
            @(InModuleScope WmcoHost { Get-WmcoFirewallRules @('rule-a') }).Count | Should -Be 1
        }
    }

    Describe 'Test-WmcoPortCovered' {
        It '<values> covers <port>: <expected>' -TestCases @(
            @{ values = @('Any'); port = 10250; expected = $true }
            @{ values = @('10250'); port = 10250; expected = $true }
            @{ values = @('10249'); port = 10250; expected = $false }
            @{ values = @('10000-11000'); port = 10250; expected = $true }
            @{ values = @('1-100', '9182'); port = 9182; expected = $true }
            @{ values = @('RPC', 'RPCEPMap'); port = 135; expected = $false }
            @{ values = @(); port = 1; expected = $false }
        ) {
            InModuleScope WmcoHost -Parameters @{ v = $values; p = $port } { param($v, $p) Test-WmcoPortCovered $v $p } | Should -Be $expected
        }
    }

    Describe 'Get-WmcoFirewallPorts' {
        It 'is empty without ports' {
            @(InModuleScope WmcoHost { Get-WmcoFirewallPorts @() }).Count | Should -Be 0
        }
        It 'lists the display names of <count> enabled inbound Allow rules covering a port' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            for ($i = 1; $i -le $count; $i++) { $WmcoFake.Firewall.Add((New-FakeFirewallRule "r$i" 'TCP' @('10000-11000') -DisplayName "Rule $i")) }
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'off' 'TCP' @('Any') -Enabled 'False'))
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'out' 'TCP' @('Any') -Direction 'Outbound'))
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'udp' 'UDP' @('Any')))
            $out = Invoke-WmcoJson (New-ObserveRequest @{ firewallPorts = @(@{ protocol = 'TCP'; localPort = 10250 }) })
            $rules = Get-JsonAt $out.Json 'state.firewallPorts.0.rules'
            $rules.ValueKind | Should -Be 'Array'
            $rules.GetArrayLength() | Should -Be $count
            (Get-JsonAt $out.Json 'state.firewallPorts.0.localPort').GetInt32() | Should -Be 10250
        }
        It 'counts a rule for any protocol' {
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'all' 'Any' @('Any') -DisplayName 'All'))
            $result = InModuleScope WmcoHost { Get-WmcoFirewallPorts @([pscustomobject]@{ protocol = 'UDP'; localPort = 4789 }) }
            @($result.rules) | Should -Be @('All')
        }
    }
}
