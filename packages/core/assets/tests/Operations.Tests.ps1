# The operations through the module's entry point: observe (every list with 0, 1 and 3 items), apply and
# its steps, deconfigure, reboot, and the protocol's error answers.
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    function New-Sha {
        param([int] $Index)
        return ('{0:x2}' -f $Index) * 32
    }
}

Describe 'WmcoHost operations' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach {
        Reset-FakeWindows
        $root = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
        $null = New-Item -ItemType Directory -Path $root
        $staging = Join-Path $root 'staging'
        $prunable = Join-Path $root 'registries'
        InModuleScope WmcoHost -Parameters @{ s = $staging; p = $prunable; r = @((Join-Path $root 'k')) } {
            param($s, $p, $r)
            $script:StagingDir = $s
            $script:PrunableRoots = @($p)
            $script:ProtectedRoots = $r
        }
    }

    Describe 'Get-WmcoHostState' {
        It 'reports every list as a JSON array with <count> items' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $items = @(1..3 | Select-Object -First $count)
            $null = New-Item -ItemType Directory -Path $staging, $prunable
            $request = New-ObserveRequest @{ listDirectories = @($prunable); rootCertificates = @() }
            $request.firewallPorts = @($items | ForEach-Object { @{ protocol = 'TCP'; localPort = 9000 + $_ } })
            $WmcoFake.Routes.Clear()
            foreach ($i in $items) {
                $deps = [string[]]@($items | ForEach-Object { "dep$_" })
                $envs = [string[]]@($items | ForEach-Object { "V$_=x" })
                $null = $WmcoFake.Scm.Add("svc$i", @{ Description = "OpenShift managed svc$i"; DependOnService = $deps; Environment = $envs })
                $file = Join-Path $root "file$i"
                [System.IO.File]::WriteAllText($file, "$i")
                $request.files += $file
                $dir = Join-Path $root "dir$i"
                $null = New-Item -ItemType Directory -Path $dir
                $request.directories += $dir
                [System.IO.File]::WriteAllText((Join-Path $staging (New-Sha $i)), "$i")
                $WmcoFake.Routes.Add((New-FakeRoute "10.$i.0.0/16"))
                $WmcoFake.Hns.Add([pscustomobject]@{ ID = "id$i"; Name = "net$i"; Type = 'Overlay' })
                $ports = [string[]]@($items | ForEach-Object { "$(9000 + $_)" })
                $WmcoFake.Firewall.Add((New-FakeFirewallRule "rule$i" 'TCP' $ports))
                $request.firewallRules += "rule$i"
                $null = New-Item -ItemType Directory -Path (Join-Path $prunable "mirror$i")
                $WmcoFake.Certs.Add((New-FakeCertificate ("$i" * 40) 'OpenShift managed'))
            }
            $out = Invoke-WmcoJson $request
            $out.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $out.Text
            $lists = @('directories', 'files', 'staged', 'services', 'routes', 'hnsNetworks', 'firewallRules', 'firewallPorts',
                'rootCertificates', "children.$prunable")
            if ($count -gt 0) {
                $lists += @('services.0.dependencies', 'services.0.environment', 'firewallRules.0.localPorts', 'firewallPorts.0.rules')
            }
            foreach ($list in $lists) {
                $value = Get-JsonAt $out.Json "state.$list"
                "$list $($value.ValueKind) $($value.GetArrayLength())" | Should -Be "$list Array $count"
            }
        }
        It 'reports the host facts with their JSON types' {
            $WmcoFake.Containers = 'Enabled'
            $WmcoFake.SshDefaultShell = 'C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe'
            $WmcoFake.EnvVars['HTTP_PROXY'] = 'http://proxy:3128'
            $out = Invoke-WmcoJson (New-ObserveRequest @{ envVars = @('HTTP_PROXY', 'NO_PROXY') })
            $state = $out.Json.GetProperty('state')
            (Get-JsonAt $state 'os.build').GetInt32() | Should -Be 20348
            (Get-JsonAt $state 'os.ubr').GetInt32() | Should -Be 2700
            $state.GetProperty('containersFeature').GetBoolean() | Should -BeTrue
            $state.GetProperty('defaultShell').GetString() | Should -Be 'powershell'
            $state.GetProperty('lastBootTime').GetString() | Should -Be $WmcoFake.BootTime.ToUniversalTime().ToString('o')
            $state.GetProperty('bootId').GetString() | Should -Be $WmcoFake.BootId
            (Get-JsonAt $state 'envVars.HTTP_PROXY').GetString() | Should -Be 'http://proxy:3128'
            @($state.GetProperty('envVars').EnumerateObject()).Count | Should -Be 1
            $state.GetProperty('evaluated').ValueKind | Should -Be 'Object'
        }
        It 'leaves out the optional parts that were not asked for' {
            $out = Invoke-WmcoJson (New-ObserveRequest)
            $names = @($out.Json.GetProperty('state').EnumerateObject() | ForEach-Object { $_.Name })
            $names | Should -Not -Contain 'firewallPorts'
            $names | Should -Not -Contain 'children'
            $names | Should -Not -Contain 'rootCertificates'
        }
    }

    Describe 'Get-WmcoStepTarget' {
        It 'names <expected> for <kind>' -TestCases @(
            @{ kind = 'startServices'; step = @{ kind = 'startServices'; names = @('a', 'b') }; expected = 'a, b' }
            @{ kind = 'placeFile'; step = @{ kind = 'placeFile'; path = 'C:\k\a.exe'; sha256 = 'x' }; expected = 'C:\k\a.exe' }
            @{ kind = 'startService'; step = @{ kind = 'startService'; name = 'kubelet' }; expected = 'kubelet' }
            @{ kind = 'removeRootCertificate'; step = @{ kind = 'removeRootCertificate'; thumbprint = 'AB' }; expected = 'AB' }
            @{ kind = 'addRoute'; step = @{ kind = 'addRoute'; destinationPrefix = '169.254.169.254/32' }; expected = '169.254.169.254/32' }
            @{ kind = 'nothing'; step = @{ kind = 'nothing' }; expected = '' }
        ) {
            InModuleScope WmcoHost -Parameters @{ s = [pscustomobject]$step } { param($s) Get-WmcoStepTarget $s } | Should -Be $expected
        }
    }

    Describe 'Invoke-WmcoStep' {
        It 'runs <kind> and says whether it needs a reboot (<reboot>)' -TestCases @(
            @{ kind = 'setEnvVar'; step = @{ kind = 'setEnvVar'; name = 'HTTP_PROXY'; value = 'http://p' }; reboot = $true }
            @{ kind = 'removeEnvVar'; step = @{ kind = 'removeEnvVar'; name = 'Path' }; reboot = $true }
            @{ kind = 'installFeature'; step = @{ kind = 'installFeature'; name = 'Containers' }; reboot = $true }
            @{ kind = 'setHostname'; step = @{ kind = 'setHostname'; name = 'node-1' }; reboot = $true }
            @{ kind = 'addRoute'; step = @{ kind = 'addRoute'; destinationPrefix = '169.254.169.254/32' }; reboot = $false }
            @{ kind = 'addFirewallRule'; step = @{ kind = 'addFirewallRule'; name = 'vxlan'; direction = 'Inbound'; protocol = 'UDP'; localPort = 4789 }; reboot = $false }
            @{ kind = 'runScript'; step = @{ kind = 'runScript'; script = '$null = $WmcoArg_x'; args = @{ x = '1' } }; reboot = $false }
        ) {
            InModuleScope WmcoHost -Parameters @{ s = ($step | ConvertTo-Json | ConvertFrom-Json) } { param($s) Invoke-WmcoStep $s } | Should -Be $reboot
        }
        It 'changes the machine for each kind' {
            $WmcoFake.Routes.Add((New-FakeRoute '0.0.0.0/0' '10.0.0.254' 9 -RouteMetric 5))
            $WmcoFake.Firewall.Add((New-FakeFirewallRule 'vxlan' 'UDP' @('4790')))
            $null = $WmcoFake.Scm.Add('svc', @{})
            $dir = Join-Path $root 'made'
            $steps = @(
                @{ kind = 'createDirectory'; path = $dir }
                @{ kind = 'setEnvVar'; name = 'HTTP_PROXY'; value = 'http://p' }
                @{ kind = 'addRoute'; destinationPrefix = '169.254.169.254/32' }
                @{ kind = 'addFirewallRule'; name = 'vxlan'; direction = 'Inbound'; protocol = 'UDP'; localPort = 4789 }
                @{ kind = 'installFeature'; name = 'Containers' }
                @{ kind = 'setHostname'; name = 'node-1' }
                @{ kind = 'setServiceEnvironment'; name = 'svc'; environment = @('A=1') }
                @{ kind = 'startService'; name = 'svc' }
                @{ kind = 'stopService'; name = 'svc' }
            ) | ForEach-Object { $_ | ConvertTo-Json | ConvertFrom-Json }
            InModuleScope WmcoHost -Parameters @{ s = $steps } { param($s) foreach ($step in $s) { $null = Invoke-WmcoStep $step } }
            Test-Path $dir | Should -BeTrue
            $WmcoFake.EnvVars['HTTP_PROXY'] | Should -Be 'http://p'
            $added = $WmcoFake.Routes | Where-Object DestinationPrefix -EQ '169.254.169.254/32'
            "$($added.NextHop) $($added.ifIndex)" | Should -Be '10.0.0.254 9'
            @($WmcoFake.Firewall | ForEach-Object { "$($_.Rule.Name) $($_.Filter.LocalPort)" }) | Should -Be @('vxlan 4789')
            $WmcoFake.Containers | Should -Be 'EnablePending'
            $WmcoFake.Calls | Should -Contain 'Rename-Computer node-1'
            $WmcoFake.Scm.Find('svc').Environment | Should -Be @('A=1')
            @($WmcoFake.Scm.Log) | Should -Be @('start svc', 'stop svc')
        }
        It 'creates, configures and starts services, removes a pruned folder and a managed certificate' {
            $null = New-Item -ItemType Directory -Path (Join-Path $prunable 'old.mirror') -Force
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            $steps = @(
                @{ kind = 'createService'; name = 'a'; commandLine = 'C:\k\a.exe'; startType = 'auto'; description = 'OpenShift managed a'; dependencies = @() }
                @{ kind = 'createService'; name = 'b'; commandLine = 'C:\k\b.exe'; startType = 'auto'; description = 'OpenShift managed b'; dependencies = @('a') }
                @{ kind = 'configureService'; name = 'a'; commandLine = 'C:\k\a.exe --v=2'; startType = 'auto'; description = 'OpenShift managed a'; dependencies = @() }
                @{ kind = 'startServices'; names = @('a', 'b') }
                @{ kind = 'removeDirectory'; path = (Join-Path $prunable 'old.mirror') }
                @{ kind = 'removeRootCertificate'; thumbprint = ('A' * 40) }
            ) | ForEach-Object { $_ | ConvertTo-Json | ConvertFrom-Json }
            InModuleScope WmcoHost -Parameters @{ s = $steps } { param($s) foreach ($step in $s) { $null = Invoke-WmcoStep $step } }
            "$($WmcoFake.Scm.Find('a').PathName) $($WmcoFake.Scm.Find('a').State) $($WmcoFake.Scm.Find('b').State)" | Should -Be 'C:\k\a.exe --v=2 Running Running'
            $WmcoFake.Scm.Find('b').DependOnService | Should -Be @('a')
            Test-Path (Join-Path $prunable 'old.mirror') | Should -BeFalse
            $WmcoFake.Certs | Should -HaveCount 0
        }
        It 'fails an importRootCertificates step whose bundle lacks a listed certificate' {
            $bundle = Join-Path $root 'ca.pem'
            [System.IO.File]::WriteAllText($bundle, '')
            $step = @{ kind = 'importRootCertificates'; path = $bundle; thumbprints = @('B' * 40) } | ConvertTo-Json | ConvertFrom-Json
            { InModuleScope WmcoHost -Parameters @{ s = $step } { param($s) Invoke-WmcoStep $s } } | Should -Throw "certificate(s) $('B' * 40) not found*"
        }
        It 'refuses an unknown kind' {
            { InModuleScope WmcoHost { Invoke-WmcoStep ([pscustomobject]@{ kind = 'format' }) } } | Should -Throw "unknown plan step kind 'format'"
        }
    }

    Describe 'Invoke-WmcoApply' {
        It 'reports <count> done steps as a list' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            InModuleScope WmcoHost { $script:ProtectedRoots = @() }
            $steps = @(1..3 | Select-Object -First $count | ForEach-Object { @{ kind = 'createDirectory'; path = (Join-Path $root "d$_") } })
            $out = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = $steps }
            $done = Get-JsonAt $out.Json 'done'
            "$($done.ValueKind) $($done.GetArrayLength())" | Should -Be "Array $count"
            $out.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeFalse
        }
        It 'protects the operator''s folders first, then stops at the first failing step and names it' {
            $placed = Join-Path $root 'k' 'a.exe'
            $out = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = @(
                    @{ kind = 'createDirectory'; path = (Join-Path $root 'k') }
                    @{ kind = 'placeFile'; path = $placed; sha256 = (New-Sha 1) }
                    @{ kind = 'createDirectory'; path = (Join-Path $root 'never') }
                ) }
            $out.Json.GetProperty('ok').GetBoolean() | Should -BeFalse
            (Get-JsonAt $out.Json 'error.step').GetInt32() | Should -Be 1
            (Get-JsonAt $out.Json 'error.message').GetString() | Should -BeLike "step 1 (placeFile $placed): staged file for*"
            @((Get-JsonAt $out.Json 'done').EnumerateArray() | ForEach-Object { $_.GetProperty('kind').GetString() }) |
                Should -Be @('protectDirectory', 'createDirectory')
            Test-Path (Join-Path $root 'never') | Should -BeFalse
        }
        It 'uses up a staged file once placed, and schedules the reboot a step asked for' {
            $null = New-Item -ItemType Directory -Path $staging
            $content = 'kubelet'
            $sha = ([System.BitConverter]::ToString([System.Security.Cryptography.SHA256]::HashData([System.Text.Encoding]::UTF8.GetBytes($content))) -replace '-', '').ToLowerInvariant()
            [System.IO.File]::WriteAllText((Join-Path $staging $sha), $content)
            $out = Invoke-WmcoJson @{ v = 1; op = 'apply'; rebootWhenRequired = $true; steps = @(
                    @{ kind = 'placeFile'; path = (Join-Path $root 'k' 'kubelet.exe'); sha256 = $sha }
                    @{ kind = 'setEnvVar'; name = 'NO_PROXY'; value = '.cluster.local' }
                ) }
            $out.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $out.Text
            $out.Json.GetProperty('rebootRequired').GetBoolean() | Should -BeTrue
            $out.Json.GetProperty('rebootScheduled').GetBoolean() | Should -BeTrue
            Test-Path (Join-Path $staging $sha) | Should -BeFalse
            @($WmcoFake.Calls | Where-Object { $_ -like 'shutdown.exe /r /t 3*' }) | Should -HaveCount 1
        }
        It 'removes a staged copy once its file is placed, even when a later step fails; an unplaced one stays' {
            $null = New-Item -ItemType Directory -Path $staging
            $shas = foreach ($content in @('containerd', 'kubelet')) {
                $sha = ([System.BitConverter]::ToString([System.Security.Cryptography.SHA256]::HashData([System.Text.Encoding]::UTF8.GetBytes($content))) -replace '-', '').ToLowerInvariant()
                [System.IO.File]::WriteAllText((Join-Path $staging $sha), $content)
                $sha
            }
            $out = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = @(
                    @{ kind = 'placeFile'; path = (Join-Path $root 'k' 'containerd.exe'); sha256 = $shas[0] }
                    @{ kind = 'placeFile'; path = (Join-Path $root 'k' 'copy' 'containerd.exe'); sha256 = $shas[0] }
                    @{ kind = 'placeFile'; path = (Join-Path $root 'k' 'missing.exe'); sha256 = (New-Sha 9) }
                    @{ kind = 'placeFile'; path = (Join-Path $root 'k' 'kubelet.exe'); sha256 = $shas[1] }
                ) }
            (Get-JsonAt $out.Json 'error.step').GetInt32() | Should -Be 2
            Test-Path (Join-Path $root 'k' 'copy' 'containerd.exe') | Should -BeTrue -Because 'a second placement of one file found its staged copy'
            Test-Path (Join-Path $staging $shas[0]) | Should -BeFalse -Because 'the resumed plan will not place it again'
            Test-Path (Join-Path $staging $shas[1]) | Should -BeTrue -Because 'the retry needs no new upload'
        }
        It 'fails without running a step when the folders cannot be protected' {
            Mock -ModuleName WmcoHost New-WmcoProtectedDirectory { throw 'Attempted to perform an unauthorized operation.' }
            $out = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = @(@{ kind = 'createDirectory'; path = (Join-Path $root 'x') }) }
            (Get-JsonAt $out.Json 'error.message').GetString() | Should -BeLike "protecting the operator's folders: *unauthorized*"
            Test-Path (Join-Path $root 'x') | Should -BeFalse
        }
    }

    Describe 'Invoke-WmcoDeconfigure' {
        It 'removes one HNS network per call in the request''s order, asking to reconnect, then the folders' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'Running'; Description = 'OpenShift managed kubelet' })
            $WmcoFake.EnvVars['HTTP_PROXY'] = 'http://p'
            # Get-HnsNetwork lists the overlay first; upstream removes the Base network first.
            $WmcoFake.Hns.Add([pscustomobject]@{ ID = 'id-overlay'; Name = 'OVNKubernetesHybridOverlayNetwork'; Type = 'Overlay' })
            $WmcoFake.Hns.Add([pscustomobject]@{ ID = 'id-base'; Name = 'BaseOVNKubernetesHybridOverlayNetwork'; Type = 'Overlay' })
            $k = Join-Path $root 'k'
            $null = New-Item -ItemType Directory -Path $k
            $request = @{ v = 1; op = 'deconfigure'; services = @(); removeTaggedServices = $true; envVars = @('HTTP_PROXY')
                hnsNetworks = @('BaseOVNKubernetesHybridOverlayNetwork', 'OVNKubernetesHybridOverlayNetwork'); directories = @($k); keep = @()
            }
            $rounds = @()
            for ($i = 0; $i -lt 3; $i++) {
                $answer = Invoke-WmcoJson $request
                $json = $answer.Json
                $json.GetProperty("ok").GetBoolean() | Should -BeTrue -Because $answer.Text
                $again = @($json.EnumerateObject() | Where-Object { $_.Name -eq 'reconnect' -and $_.Value.GetBoolean() }).Count -eq 1
                $targets = @($json.GetProperty('done').EnumerateArray() | ForEach-Object { $_.GetProperty('target').GetString() })
                $rounds += "$($targets -join ',') reconnect=$again exists=$(Test-Path $k)"
            }
            $rounds | Should -Be @(
                'kubelet,BaseOVNKubernetesHybridOverlayNetwork reconnect=True exists=True'
                'OVNKubernetesHybridOverlayNetwork reconnect=True exists=True'
                "HTTP_PROXY,$k reconnect=False exists=False"
            )
            $WmcoFake.Calls | Should -Contain 'Stop-Process containerd-shim-runhcs-v1'
        }
        It 'reports <count> done actions as a list' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $names = @(1..3 | Select-Object -First $count | ForEach-Object { "svc$_" })
            foreach ($name in $names) { $null = $WmcoFake.Scm.Add($name, @{}) }
            $out = Invoke-WmcoJson @{ v = 1; op = 'deconfigure'; services = $names; removeTaggedServices = $false; envVars = @(); hnsNetworks = @(); directories = @(); keep = @() }
            $done = Get-JsonAt $out.Json 'done'
            "$($done.ValueKind) $($done.GetArrayLength())" | Should -Be "Array $count"
        }
    }

    Describe 'Invoke-WmcoReboot' {
        It 'schedules a restart a few seconds out and reports the boot time before it' {
            $out = Invoke-WmcoJson @{ v = 1; op = 'reboot' }
            $out.Json.GetProperty('lastBootTime').GetString() | Should -Be $WmcoFake.BootTime.ToUniversalTime().ToString('o')
            $out.Json.GetProperty('bootId').GetString() | Should -Be $WmcoFake.BootId
            $WmcoFake.Calls | Should -Contain "shutdown.exe /r /t 3 /d p:4:1 /c wmco: reboot requested by the operator"
        }
    }

    Describe 'Invoke-WmcoHost' {
        It 'answers <case> with ok false and a message' -TestCases @(
            @{ case = 'text that is not JSON'; json = 'not json'; message = '*' }
            @{ case = 'another protocol version'; json = '{"v":2,"op":"observe"}'; message = 'protocol version 2 is not supported (this module speaks 1)' }
            @{ case = 'an unknown operation'; json = '{"v":1,"op":"format"}'; message = "unknown operation 'format'" }
        ) {
            $line = Invoke-WmcoHost -RequestJson $json
            $line | Should -Not -Match "`n"
            $answer = [System.Text.Json.JsonDocument]::Parse($line).RootElement
            $answer.GetProperty('ok').GetBoolean() | Should -BeFalse
            (Get-JsonAt $answer 'error.message').GetString() | Should -BeLike $message
        }
    }
}

Describe 'Get-WmcoNativePath' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeDriveC
    }
    It 'gives .NET the file behind a drive-C: path (the same path on Windows)' {
        $expected = Join-Path (Get-PSDrive -Name C).Root 'k' 'kubelet.exe'
        InModuleScope WmcoHost { Get-WmcoNativePath 'C:\k\kubelet.exe' } | Should -Be $expected
    }
}

Describe 'Get-WmcoBootId' {
    BeforeAll { Import-WmcoHostModule }
    # Volatile registry keys exist only in the Windows registry: this runs on Windows alone (a skip elsewhere,
    # counted as such); the rest of the suite mocks it.
    It 'keeps one GUID per boot in a volatile key, the same on every read' -Skip:(-not $IsWindows) {
        InModuleScope WmcoHost {
            $first = Get-WmcoBootId
            $first | Should -Be (Get-WmcoBootId)
            [guid]::Parse($first) | Should -Not -BeNullOrEmpty
        }
    }
}

Describe 'the suite' {
    It 'has a Describe block for every function of WmcoHost.psm1' {
        $module = Join-Path $PSScriptRoot '..' 'WmcoHost.psm1'
        $ast = [System.Management.Automation.Language.Parser]::ParseFile($module, [ref]$null, [ref]$null)
        $functions = @($ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.FunctionDefinitionAst] }, $true) | ForEach-Object { $_.Name })
        $described = @(Get-ChildItem -LiteralPath $PSScriptRoot -Filter '*.Tests.ps1' | ForEach-Object {
                [regex]::Matches((Get-Content -Raw -LiteralPath $_.FullName), "Describe '([A-Za-z-]+)'") | ForEach-Object { $_.Groups[1].Value }
            })
        $functions.Count | Should -BeGreaterThan 40
        @($functions | Where-Object { $described -notcontains $_ }) | Should -Be @()
    }
}
