# Services: existence, state, environment, dependencies, stop/start, create/configure, delete.
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest
}

Describe 'WmcoHost services' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach { Reset-FakeWindows }

    Describe 'module import' {
        # PowerShell 7 loads System.ServiceProcess.ServiceController at start-up, so only the module's own text
        # can show this: Windows PowerShell 5.1 resolves a type name only in assemblies already loaded, and a
        # fresh session after a reboot has not loaded this one before the module's first New-Object.
        It 'loads System.ServiceProcess itself, at import, before any function runs' {
            $module = Join-Path $PSScriptRoot '..' 'WmcoHost.psm1'
            $ast = [System.Management.Automation.Language.Parser]::ParseFile($module, [ref]$null, [ref]$null)
            $topLevel = @($ast.EndBlock.Statements | ForEach-Object { $_.Extent.Text })
            $topLevel | Should -Contain 'Add-Type -AssemblyName System.ServiceProcess'
        }
    }

    Describe 'Test-WmcoService' {
        It 'is true for a service sc.exe qc finds, false for error 1060' {
            $null = $WmcoFake.Scm.Add('kubelet', @{})
            InModuleScope WmcoHost { Test-WmcoService 'kubelet' } | Should -BeTrue
            InModuleScope WmcoHost { Test-WmcoService 'missing' } | Should -BeFalse
        }
        It 'treats other sc.exe failures (122: the config is larger than the buffer) as existing' {
            Mock -ModuleName WmcoHost sc.exe { $global:LASTEXITCODE = 122; '[SC] QueryServiceConfig FAILED 122:' }
            InModuleScope WmcoHost { Test-WmcoService 'big' } | Should -BeTrue
        }
    }

    Describe 'ConvertTo-WmcoStartType' {
        It 'maps Win32_Service.StartMode <mode> to <expected>' -TestCases @(
            @{ mode = 'Auto'; expected = 'auto' }, @{ mode = 'Manual'; expected = 'demand' },
            @{ mode = 'Disabled'; expected = 'disabled' }, @{ mode = 'Boot'; expected = 'boot' }, @{ mode = 'System'; expected = 'system' }
        ) {
            InModuleScope WmcoHost -Parameters @{ mode = $mode } { param($mode) ConvertTo-WmcoStartType $mode } | Should -Be $expected
        }
    }

    Describe 'Get-WmcoCimServices' {
        It 'lists <count> services' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            for ($i = 0; $i -lt $count; $i++) { $null = $WmcoFake.Scm.Add("svc$i", @{}) }
            InModuleScope WmcoHost { @(Get-WmcoCimServices).Count } | Should -Be $count
        }
    }

    Describe 'Get-WmcoServiceState' {
        It 'reports name, state, start type, command line and an empty description for a null one' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'StartPending'; StartMode = 'Auto'; PathName = 'C:\k\kubelet.exe --v=2' })
            $state = InModuleScope WmcoHost { Get-WmcoServiceState (Get-WmcoCimServices | Select-Object -First 1) }
            $state.name | Should -Be 'kubelet'
            $state.state | Should -Be 'start-pending'
            $state.startType | Should -Be 'auto'
            $state.commandLine | Should -Be 'C:\k\kubelet.exe --v=2'
            $state.description | Should -Be ''
            $state.Contains('environment') | Should -BeFalse
        }
        It 'reports <count> dependencies as a list' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $deps = $null
            if ($count -gt 0) { $deps = [string[]]@(1..$count | ForEach-Object { "dep$_" }) }
            foreach ($dep in @($deps)) { if ($null -ne $dep) { $null = $WmcoFake.Scm.Add($dep, @{}) } }
            $null = $WmcoFake.Scm.Add('svc', @{ DependOnService = $deps })
            $type = InModuleScope WmcoHost { $s = Get-WmcoServiceState (Get-WmcoCimServices | Where-Object Name -EQ 'svc'); $s.dependencies.GetType().Name }
            $type | Should -Be 'String[]'
            $names = InModuleScope WmcoHost { (Get-WmcoServiceState (Get-WmcoCimServices | Where-Object Name -EQ 'svc')).dependencies }
            @($names).Count | Should -Be $count
        }
        It 'reports a dependency on a service that no longer exists instead of failing (DependOnService, not ServicesDependedOn)' {
            $null = $WmcoFake.Scm.Add('kube-proxy', @{ DependOnService = [string[]]@('deleted-service') })
            $deps = InModuleScope WmcoHost { (Get-WmcoServiceState (Get-WmcoCimServices | Select-Object -First 1)).dependencies }
            $deps | Should -Be @('deleted-service')
        }
    }

    Describe 'Get-WmcoServiceMultiString' {
        It 'is $null without the service key or the value' {
            $null = $WmcoFake.Scm.Add('svc', @{})
            InModuleScope WmcoHost { $null -eq (Get-WmcoServiceMultiString 'svc' 'Environment') } | Should -BeTrue
            InModuleScope WmcoHost { $null -eq (Get-WmcoServiceMultiString 'missing' 'Environment') } | Should -BeTrue
        }
    }

    Describe 'Get-WmcoServiceEnvironment' {
        It 'returns <count> entries as a string array, never a lone string' -TestCases @(@{ count = 1 }, @{ count = 3 }) {
            $null = $WmcoFake.Scm.Add('kubelet', @{ Environment = [string[]]@(1..$count | ForEach-Object { "V$_=x" }) })
            $type = InModuleScope WmcoHost { $e = Get-WmcoServiceEnvironment 'kubelet'; $e.GetType().Name }
            $type | Should -Be 'String[]'
        }
        It 'is $null when the service has no Environment value' {
            $null = $WmcoFake.Scm.Add('kubelet', @{})
            InModuleScope WmcoHost { $null -eq (Get-WmcoServiceEnvironment 'kubelet') } | Should -BeTrue
        }
        It 'reaches the observe result as a JSON array for one entry (a proxy with one variable)' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ Description = 'OpenShift managed kubelet'; Environment = [string[]]@('HTTP_PROXY=http://p:3128') })
            $out = Invoke-WmcoJson (New-ObserveRequest)
            $out.Text | Should -Match ([regex]::Escape('"environment":["HTTP_PROXY=http://p:3128"]'))
        }
    }

    Describe 'Set-WmcoServiceEnvironment' {
        It 'writes the entries as REG_MULTI_SZ' {
            $null = $WmcoFake.Scm.Add('kubelet', @{})
            InModuleScope WmcoHost { Set-WmcoServiceEnvironment 'kubelet' @('A=1') }
            $WmcoFake.Scm.Find('kubelet').Environment | Should -Be @('A=1')
            $WmcoFake.Calls | Should -Contain 'Set-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Services\kubelet Environment MultiString'
        }
        It 'removes the value for an empty list' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ Environment = [string[]]@('A=1') })
            InModuleScope WmcoHost { Set-WmcoServiceEnvironment 'kubelet' @() }
            $WmcoFake.Scm.Find('kubelet').Environment | Should -BeNullOrEmpty
        }
        It 'refuses a service that does not exist' {
            { InModuleScope WmcoHost { Set-WmcoServiceEnvironment 'missing' @('A=1') } } | Should -Throw "*service 'missing' does not exist*"
        }
    }

    Describe 'Stop-WmcoService' {
        It 'does nothing for a missing service' {
            InModuleScope WmcoHost { Stop-WmcoService 'missing' }
            $WmcoFake.Scm.Log | Should -HaveCount 0
        }
        It 'stops running dependents first' {
            $null = $WmcoFake.Scm.Add('containerd', @{ State = 'Running' })
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'Running'; DependOnService = [string[]]@('containerd') })
            InModuleScope WmcoHost { Stop-WmcoService 'containerd' }
            @($WmcoFake.Scm.Log) | Should -Be @('stop kubelet', 'stop containerd')
            $WmcoFake.Scm.Find('containerd').State | Should -Be 'Stopped'
        }
        It 'leaves a stopped service alone' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'Stopped' })
            InModuleScope WmcoHost { Stop-WmcoService 'kubelet' }
            $WmcoFake.Scm.Log | Should -HaveCount 0
        }
        It 'kills the process of a service that does not stop in time (WaitForStatus throws TimeoutException)' {
            $service = $WmcoFake.Scm.Add('containerd', @{ State = 'Running'; OnStop = 'hang' })
            $processId = $service.ProcessId
            InModuleScope WmcoHost { Stop-WmcoService 'containerd' }
            $WmcoFake.Scm.Log | Should -Contain "kill $processId"
            $WmcoFake.Scm.Find('containerd').State | Should -Be 'Stopped'
        }
    }

    Describe 'Start-WmcoService' {
        It 'starts a stopped service and waits for Running' {
            $null = $WmcoFake.Scm.Add('kubelet', @{})
            InModuleScope WmcoHost { Start-WmcoService 'kubelet' }
            $WmcoFake.Scm.Find('kubelet').State | Should -Be 'Running'
        }
        It 'does not start a running one again' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'Running' })
            InModuleScope WmcoHost { Start-WmcoService 'kubelet' }
            $WmcoFake.Scm.Log | Should -HaveCount 0
        }
    }

    Describe 'Wait-WmcoServiceRunning' {
        It 'reports a service that stops while starting at once, with its exit code and the reason' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ OnStart = 'crash'; CrashExitCode = 2; CrashSpecificCode = 0 })
            $reason = [System.ComponentModel.Win32Exception]::new(2).Message
            { InModuleScope WmcoHost { Start-WmcoService 'kubelet' } } |
                Should -Throw "service 'kubelet' stopped while starting: exit code 2: $reason"
        }
        It 'gives the service-specific code for exit code 1066' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ OnStart = 'crash' })
            { InModuleScope WmcoHost { Start-WmcoService 'kubelet' } } |
                Should -Throw "*stopped while starting: exit code 1066, service-specific code 3*"
        }
        It 'gives up after the polls of the timeout for a service that stays StartPending' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ OnStart = 'hang' })
            { InModuleScope WmcoHost { Start-WmcoService 'kubelet' } } | Should -Throw "*did not reach Running within 120 s (status StartPending)*"
        }
    }

    Describe 'Get-WmcoServiceExitReason' {
        It 'says when the service is gone' {
            InModuleScope WmcoHost { Get-WmcoServiceExitReason 'missing' } | Should -Be 'it no longer exists'
        }
    }

    Describe 'Get-WmcoErrorText' {
        It 'adds the inner exception text ServiceController.Start wraps' {
            $inner = [System.ComponentModel.Win32Exception]::new(2, 'The system cannot find the file specified')
            $outer = [System.InvalidOperationException]::new("Cannot start service x on computer '.'.", $inner)
            InModuleScope WmcoHost -Parameters @{ e = $outer } { param($e) Get-WmcoErrorText $e } |
                Should -Be "Cannot start service x on computer '.'.: The system cannot find the file specified"
        }
    }

    Describe 'Start-WmcoServices' {
        It 'starts <count> services of one level before waiting for any' -TestCases @(@{ count = 1 }, @{ count = 3 }) {
            $names = @(1..$count | ForEach-Object { "svc$_" })
            foreach ($name in $names) { $null = $WmcoFake.Scm.Add($name, @{}) }
            InModuleScope WmcoHost -Parameters @{ names = $names } { param($names) Start-WmcoServices $names }
            @($WmcoFake.Scm.Log) | Should -Be @($names | ForEach-Object { "start $_" })
            @($names | Where-Object { $WmcoFake.Scm.Find($_).State -ne 'Running' }) | Should -HaveCount 0
        }
        It 'names the service and the Win32 reason when Start() fails' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ OnStart = 'fail' })
            { InModuleScope WmcoHost { Start-WmcoServices @('kubelet') } } |
                Should -Throw "service 'kubelet' did not start: *The system cannot find the file specified"
        }
    }

    Describe 'Set-WmcoServiceConfig' {
        It 'creates a missing service with New-Service (DependsOn only when there are dependencies)' {
            InModuleScope WmcoHost {
                Set-WmcoServiceConfig ([pscustomobject]@{ name = 'a'; commandLine = 'C:\k\a.exe'; startType = 'auto'; description = 'OpenShift managed a'; dependencies = @() })
                Set-WmcoServiceConfig ([pscustomobject]@{ name = 'b'; commandLine = 'C:\k\b.exe'; startType = 'demand'; description = 'OpenShift managed b'; dependencies = @('a') })
            }
            $WmcoFake.Scm.Find('a').StartMode | Should -Be 'Auto'
            $WmcoFake.Scm.Find('a').DependOnService | Should -BeNullOrEmpty
            $WmcoFake.Scm.Find('b').StartMode | Should -Be 'Manual'
            $WmcoFake.Scm.Find('b').DependOnService | Should -Be @('a')
        }
        It 'changes an existing service with Win32_Service.Change and Set-Service' {
            $null = $WmcoFake.Scm.Add('a', @{ PathName = 'old'; StartMode = 'Manual' })
            InModuleScope WmcoHost {
                Set-WmcoServiceConfig ([pscustomobject]@{ name = 'a'; commandLine = 'C:\k\a.exe --new'; startType = 'disabled'; description = 'd'; dependencies = @('x', 'y') })
            }
            $service = $WmcoFake.Scm.Find('a')
            $service.PathName | Should -Be 'C:\k\a.exe --new'
            $service.StartMode | Should -Be 'Disabled'
            $service.DependOnService | Should -Be @('x', 'y')
            $service.Description | Should -Be 'd'
        }
        It 'clears every dependency when the step has none (sc.exe config depend= /)' {
            $null = $WmcoFake.Scm.Add('kube-proxy', @{ DependOnService = [string[]]@('kubelet') })
            InModuleScope WmcoHost {
                Set-WmcoServiceConfig ([pscustomobject]@{ name = 'kube-proxy'; commandLine = 'C:\k\kube-proxy.exe'; startType = 'auto'; description = 'd'; dependencies = @() })
            }
            $WmcoFake.Scm.Find('kube-proxy').DependOnService | Should -HaveCount 0
            $WmcoFake.Calls | Should -Contain 'sc.exe config kube-proxy depend= /'
        }
        It 'fails with the Change return value' {
            $null = $WmcoFake.Scm.Add('a', @{})
            Mock -ModuleName WmcoHost Invoke-CimMethod { [pscustomobject]@{ ReturnValue = [uint32]2 } }
            { InModuleScope WmcoHost { Set-WmcoServiceConfig ([pscustomobject]@{ name = 'a'; commandLine = 'x'; startType = 'auto'; description = 'd'; dependencies = @('b') }) } } |
                Should -Throw "*Win32_Service.Change code 2*"
        }
    }

    Describe 'Clear-WmcoServiceDependencies' {
        It 'fails with sc.exe''s exit code' {
            Mock -ModuleName WmcoHost sc.exe { $global:LASTEXITCODE = 5; '[SC] OpenService FAILED 5:' }
            { InModuleScope WmcoHost { Clear-WmcoServiceDependencies 'a' } } | Should -Throw "*depend= / failed (5)*"
        }
    }

    Describe 'Remove-WmcoService' {
        It 'is $false for a service that does not exist' {
            InModuleScope WmcoHost { Remove-WmcoService 'missing' } | Should -BeFalse
        }
        It 'stops the service, deletes it and returns once sc.exe query answers 1060, so it can be created again' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ State = 'Running' })
            InModuleScope WmcoHost { Remove-WmcoService 'kubelet' } | Should -BeTrue
            $WmcoFake.Scm.Find('kubelet') | Should -BeNullOrEmpty
            @($WmcoFake.Calls | Where-Object { $_ -eq 'sc.exe query kubelet' }).Count | Should -BeGreaterThan 1
            InModuleScope WmcoHost {
                Set-WmcoServiceConfig ([pscustomobject]@{ name = 'kubelet'; commandLine = 'C:\k\kubelet.exe'; startType = 'auto'; description = 'd'; dependencies = @() })
            }
            $WmcoFake.Scm.Find('kubelet').PathName | Should -Be 'C:\k\kubelet.exe'
        }
        It 'reports a service that stays marked for deletion' {
            $null = $WmcoFake.Scm.Add('kubelet', @{ DeleteLag = 1000 })
            { InModuleScope WmcoHost { Remove-WmcoService 'kubelet' } } | Should -Throw "*marked for deletion but still exists after 60 checks*"
        }
        It 'fails when sc.exe delete fails' {
            $null = $WmcoFake.Scm.Add('kubelet', @{})
            Mock -ModuleName WmcoHost sc.exe -ParameterFilter { $args[0] -eq 'delete' } { $global:LASTEXITCODE = 5; 'Access is denied.' }
            { InModuleScope WmcoHost { Remove-WmcoService 'kubelet' } } | Should -Throw "*sc.exe delete 'kubelet' failed (5)*"
        }
        It 'is the deleteService step of apply (the Go WMCO daemon at a takeover); a missing service is fine' {
            InModuleScope WmcoHost { $script:ProtectedRoots = @() }
            $null = $WmcoFake.Scm.Add('windows-instance-config-daemon', @{ State = 'Running' })
            $steps = @(@{ kind = 'deleteService'; name = 'windows-instance-config-daemon' }, @{ kind = 'deleteService'; name = 'missing' })
            $answer = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = $steps }
            $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
            $WmcoFake.Scm.Find('windows-instance-config-daemon') | Should -BeNullOrEmpty
        }
    }

    Describe 'Wait-WmcoServiceDeleted' {
        It 'returns at once for a service that is gone' {
            InModuleScope WmcoHost { Wait-WmcoServiceDeleted 'missing' }
            @($WmcoFake.Calls) | Should -Be @('sc.exe query missing')
        }
    }
}
