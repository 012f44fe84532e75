# Runs the Pester suite of the host module (packages/core/assets/tests) and prints TAP: one `ok`/`not ok`
# line per test, then `# pass N` and `# fail N` (the lines scripts/tap-summary.js adds up). Exits 1 when a
# test failed or the run itself broke. Usage: pwsh -File scripts/pester.ps1 <Pester.psd1> [test path...]
param(
    [Parameter(Mandatory = $true)] [string] $PesterModule,
    [Parameter(ValueFromRemainingArguments = $true)] [string[]] $Path = @((Join-Path $PSScriptRoot ".." "packages" "core" "assets" "tests"))
)
$ErrorActionPreference = 'Stop'
Import-Module $PesterModule
$config = New-PesterConfiguration
$config.Run.Path = $Path
$config.Run.PassThru = $true
$config.Output.Verbosity = 'None'
$run = Invoke-Pester -Configuration $config
$tests = @($run.Tests)
$number = 0
foreach ($test in $tests) {
    $number++
    $name = ($test.ExpandedPath -replace '[\r\n#]', ' ')
    if ($test.Result -eq 'Passed') {
        "ok $number - $name"
    } elseif ($test.Result -eq 'Failed') {
        "not ok $number - $name"
        foreach ($err in @($test.ErrorRecord)) {
            foreach ($line in ([string]$err) -split "`n") { "  # $line" }
        }
    } else {
        "ok $number - $name # SKIP $($test.Result)"
    }
}
# A file that failed to load (BeforeAll, syntax) has no tests to show it: it counts as a failure, and its
# error is printed either way.
$broken = @($run.Containers | Where-Object { $_.Result -eq 'Failed' -and @($_.Blocks).Count -eq 0 })
foreach ($container in $broken) {
    $number++
    "not ok $number - $($container.Item) could not run"
}
foreach ($container in @($run.Containers | Where-Object { @($_.ErrorRecord).Count -gt 0 })) {
    foreach ($err in @($container.ErrorRecord)) { foreach ($line in ([string]$err) -split "`n") { "# $($container.Item): $line" } }
}
$failed = @($tests | Where-Object { $_.Result -eq 'Failed' }).Count + $broken.Count
$passed = @($tests | Where-Object { $_.Result -eq 'Passed' }).Count
"1..$number"
"# pass $passed"
"# fail $failed"
if ($failed -gt 0 -or $run.Result -ne 'Passed') { exit 1 }
exit 0
