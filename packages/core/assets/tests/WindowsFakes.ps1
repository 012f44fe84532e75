# Fakes of the Windows-only surface WmcoHost.psm1 uses, for the Pester suite (dot-sourced in BeforeAll).
#
# Stubs first (WindowsStubs.ps1: Pester mocks only commands that exist, pester/Pester #398), then
# Use-FakeWindows (FakeMocks.ps1) mocks them inside the module with one fake machine ($global:WmcoFake,
# FakeMachine.ps1 and FakeClasses.ps1). Every object returned has the type and shape Microsoft documents for
# it; the source of each is in SOURCES.md next to this file.

Set-StrictMode -Version Latest
. (Join-Path $PSScriptRoot 'WindowsStubs.ps1')
. (Join-Path $PSScriptRoot 'FakeClasses.ps1')
. (Join-Path $PSScriptRoot 'FakeMachine.ps1')
. (Join-Path $PSScriptRoot 'FakeMocks.ps1')

# The module under test (imported once per file; Reset-FakeWindows puts its settings back for each test).
function Import-WmcoHostModule {
    $path = Join-Path $PSScriptRoot '..' 'WmcoHost.psm1'
    Import-Module $path -Force -DisableNameChecking
    $global:WmcoModuleDefaults = InModuleScope WmcoHost {
        @{ StagingDir = $script:StagingDir; ProtectedRoots = $script:ProtectedRoots; PrunableRoots = $script:PrunableRoots
            CniStateDir = $script:CniStateDir; ClientCertDir = $script:ClientCertDir }
    }
}

# A fresh fake machine for the next test, and the module's folders as the module sets them.
function Reset-FakeWindows {
    $global:WmcoFake = New-FakeWindows
    # Windows always has it (observe's hostname); Linux does not.
    $env:COMPUTERNAME = $global:WmcoFake.Hostname
    InModuleScope WmcoHost -Parameters @{ d = $global:WmcoModuleDefaults } {
        param($d)
        $script:StagingDir = $d.StagingDir
        $script:ProtectedRoots = $d.ProtectedRoots
        $script:PrunableRoots = $d.PrunableRoots
        $script:CniStateDir = $d.CniStateDir
        $script:ClientCertDir = $d.ClientCertDir
    }
}

# One request through the module's entry point, as the operator sends it: JSON in, one line of JSON out.
function Invoke-WmcoJson {
    param([hashtable] $Request)
    $line = Invoke-WmcoHost -RequestJson ($Request | ConvertTo-Json -Depth 12 -Compress)
    # Kept for scripts/check-host-answers.js, which parses each with the operator's schemas.
    if ($env:WMCO_HOST_ANSWERS) { [System.IO.File]::WriteAllText((Join-Path $env:WMCO_HOST_ANSWERS "$([guid]::NewGuid()).json"), $line) }
    return [pscustomobject]@{ Text = $line; Json = [System.Text.Json.JsonDocument]::Parse($line).RootElement }
}

# An observe request asking for nothing but what every observe reports.
function New-ObserveRequest {
    param([hashtable] $With = @{})
    $request = @{ v = 1; op = 'observe'; directories = @(); files = @(); services = @(); envVars = @(); firewallRules = @() }
    foreach ($key in $With.Keys) { $request[$key] = $With[$key] }
    return $request
}

# The JSON value at a dotted path ('state.services.0.environment').
function Get-JsonAt {
    param([System.Text.Json.JsonElement] $Element, [string] $Path)
    foreach ($part in $Path.Split('.')) {
        if ($part -match '^\d+$') { $Element = @($Element.EnumerateArray())[[int]$part] } else { $Element = $Element.GetProperty($part) }
    }
    return $Element
}
