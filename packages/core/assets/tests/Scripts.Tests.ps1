# Pre-scripts: Invoke-WmcoScript and Invoke-WmcoEvaluate run in PowerShell itself (nothing to fake).
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest
}

Describe 'WmcoHost scripts' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach { Reset-FakeWindows }

    Describe 'Invoke-WmcoScript' {
        It 'joins the output lines and trims the whole' {
            InModuleScope WmcoHost { Invoke-WmcoScript "' 10.0.0.5'; 'second '" $null } | Should -Be "10.0.0.5`nsecond"
        }
        It 'binds each argument to $WmcoArg_ and its name as one value, never parsed' {
            $arguments = [pscustomobject]@{ name = 'a; Remove-Item C:\ -Recurse' }
            InModuleScope WmcoHost -Parameters @{ a = $arguments } { param($a) Invoke-WmcoScript '$WmcoArg_name' $a } |
                Should -Be 'a; Remove-Item C:\ -Recurse'
        }
        It 'refuses an argument name that is not an identifier' {
            $arguments = [pscustomobject]@{ 'bad name' = 'x' }
            { InModuleScope WmcoHost -Parameters @{ a = $arguments } { param($a) Invoke-WmcoScript '1' $a } } | Should -Throw "*bad argument name 'bad name'*"
        }
        It 'fails on any error (ErrorActionPreference Stop), with strict mode off as in a fresh powershell.exe' {
            { InModuleScope WmcoHost { Invoke-WmcoScript 'Get-Content -LiteralPath /no/such/path' $null } } | Should -Throw
            InModuleScope WmcoHost { Invoke-WmcoScript '$undefinedVariable; ''ok''' $null } | Should -Be 'ok'
        }
        It 'drops warnings, verbose, debug and information output' {
            InModuleScope WmcoHost { Invoke-WmcoScript "Write-Warning w; Write-Verbose v -Verbose; Write-Information i; Write-Host h; 'result'" $null } |
                Should -Be 'result'
        }
        It 'refuses more than 4096 characters of output' {
            { InModuleScope WmcoHost { Invoke-WmcoScript "'x' * 4097" $null } } | Should -Throw '*printed 4097 characters, more than the 4096*'
        }
    }

    Describe 'Invoke-WmcoEvaluate' {
        It 'answers <count> scripts by name, each on its own' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $entries = @(1..3 | Select-Object -First $count | ForEach-Object { @{ name = "s$_"; script = "'out$_'" } })
            if ($count -gt 1) { $entries[1] = @{ name = 's2'; script = 'throw ''broken''' } }
            $out = Invoke-WmcoJson (New-ObserveRequest @{ evaluate = $entries })
            $evaluated = Get-JsonAt $out.Json 'state.evaluated'
            @($evaluated.EnumerateObject()).Count | Should -Be $count
            if ($count -gt 0) { (Get-JsonAt $evaluated 's1.output').GetString() | Should -Be 'out1' }
            if ($count -gt 1) {
                (Get-JsonAt $evaluated 's2.ok').GetBoolean() | Should -BeFalse
                (Get-JsonAt $evaluated 's2.error').GetString() | Should -Be 'broken'
            }
        }
        It 'passes arguments' {
            $result = InModuleScope WmcoHost { Invoke-WmcoEvaluate @([pscustomobject]@{ name = 'ip'; script = '$WmcoArg_ip'; args = [pscustomobject]@{ ip = '10.1.2.3' } }) }
            $result['ip'].output | Should -Be '10.1.2.3'
        }
    }
}
