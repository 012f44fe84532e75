import type { GateScript } from './ps51-gate.js';

/** A script that breaks one rule of the 5.1 gate, and the line the gate must report it on. */
export interface BrokenScript extends GateScript {
  readonly rule: string;
  readonly line: number;
}

const broken = (rule: string, line: number, lines: readonly string[], name = rule): BrokenScript => ({
  name: `${name}.ps1`,
  rule,
  line,
  text: lines.join('\n'),
});

/** One script per rule (some rules twice), each breaking the rule on a known line. */
export const BROKEN_SCRIPTS: readonly BrokenScript[] = [
  broken('parse', 2, ["$ErrorActionPreference = 'Stop'", 'function F { if ($x -eq 1) { }']),
  broken('ps7-ternary', 2, ['$b = 1', '$a = $b ? 1 : 2']),
  broken('ps7-pipeline-chain', 1, ["Get-Item -LiteralPath 'C:\\k' && Write-Output 'ok'"]),
  broken('ps7-null-coalescing', 2, ['$b = $null', "$a = $b ?? 'default'"]),
  broken('ps7-null-coalescing', 3, ['$b = $null', '$c = 1', '$b ??= 2'], 'ps7-null-coalescing-assignment'),
  broken('ps7-null-conditional', 2, ['$a = $null', '${a}?.Name']),
  broken('ps7-null-conditional', 1, ['$first = ${list}?[0]'], 'ps7-null-conditional-index'),
  broken('ps7-clean-block', 3, [
    'function F {',
    '  process { $_ }',
    '  clean { Remove-Item -LiteralPath C:\\t }',
    '}',
  ]),
  broken('ps7-background', 1, ['Start-Sleep -Seconds 5 &']),
  broken('ps7-replace-scriptblock', 1, ["$b = 'a-b' -replace '-', { '+' }"]),
  broken('ps7-unicode-escape', 2, ['$a = 1', '$arrow = "`u{2195}"']),
  broken('ps7-variable', 2, ["$sep = '\\'", "if ($IsWindows) { $sep = '\\' } else { $sep = '/' }"]),
  broken('convertfrom-json-piped', 2, [
    '$json = \'[{"name":"a"},{"name":"b"}]\'',
    '$names = $json | ConvertFrom-Json | ForEach-Object { $_.name }',
  ]),
  broken('utf16-output', 2, ["$config = 'a: 1'", '$config > C:\\k\\kubelet.conf']),
  broken('utf16-output', 1, ["'a: 1' | Out-File -FilePath C:\\k\\kubelet.conf"], 'utf16-output-out-file'),
  broken('command-unknown', 2, ['$e = $Error[0]', 'Get-Error -Newest 1']),
  // Piped on: the pipeline rules meet a command the profile does not know.
  broken('command-unknown', 1, ["Test-Json -Json '{}' | Out-Null"], 'command-unknown-test-json'),
  broken('parameter-unknown', 2, [
    '$items = 1..3',
    '$items | ForEach-Object -Parallel { $_ * 2 } -ThrottleLimit 2',
  ]),
  broken(
    'parameter-unknown',
    1,
    ['$o = ConvertFrom-Json -InputObject \'{"a":1}\' -AsHashtable'],
    'parameter-unknown-ashashtable',
  ),
  broken(
    'parameter-unknown',
    1,
    ["$b = Get-Content -LiteralPath 'C:\\k\\x' -AsByteStream"],
    'parameter-unknown-asbytestream',
  ),
  broken(
    'parameter-unknown',
    1,
    ["Get-Item -LiteralPath 'C:\\k' -ProgressAction SilentlyContinue"],
    'parameter-unknown-progressaction',
  ),
  broken('parameter-value', 1, ["Set-Content -LiteralPath 'C:\\k\\a.txt' -Value 'x' -Encoding utf8NoBOM"]),
  broken('positional-count', 1, ["$p = Join-Path 'C:\\k' 'bin' 'kubelet.exe'"]),
  broken('type-unknown', 1, ["$v = [semver]'1.2.3'"]),
  broken(
    'type-unknown',
    1,
    ["$o = [System.Text.Json.JsonSerializer]::Deserialize('{}', [object])"],
    'type-unknown-json',
  ),
  broken('static-member-unknown', 1, ["$p = [System.IO.Path]::Join('C:\\k', 'bin')"]),
  broken(
    'static-member-unknown',
    1,
    ['$hex = [Convert]::ToHexString([byte[]]@(1, 2))'],
    'static-member-unknown-hex',
  ),
  broken('native-stderr-under-stop', 4, [
    'function Remove-Thing([string]$Name) {',
    "    $ErrorActionPreference = 'Stop'",
    '    $null = 1',
    '    $output = & sc.exe delete $Name 2>&1 | Out-String',
    '}',
  ]),
  broken(
    'native-stderr-under-stop',
    6,
    [
      'function A {',
      "    $ErrorActionPreference = 'Continue'",
      '}',
      'function B([string]$Tar) {',
      "    $ErrorActionPreference = 'Stop'",
      '    & $Tar -x -f archive.tgz 2>&1',
      '}',
    ],
    'native-stderr-continue-elsewhere',
  ),
  broken('cim-array-cast', 2, [
    '$filter = Get-NetFirewallPortFilter -PolicyStore ActiveStore | Select-Object -First 1',
    '$port = [int]$filter.LocalPort',
  ]),
  broken('array-return-unrolled', 5, [
    'function Get-Things {',
    '    return @(Get-ChildItem -LiteralPath C:\\k)',
    '}',
    '$state = @{}',
    '$state.things = Get-Things',
  ]),
  broken(
    'array-return-unrolled',
    6,
    [
      'function Get-Names {',
      '    $names = @()',
      "    $names += 'a'",
      '    return $names',
      '}',
      '$all = @{ names = Get-Names }',
    ],
    'array-return-unrolled-variable',
  ),
];

/** The same constructs written the Windows PowerShell 5.1 way: the gate must find nothing here. */
export const CLEAN_SCRIPT: GateScript = {
  name: 'clean.ps1',
  text: [
    "$ErrorActionPreference = 'Stop'",
    'function Get-Things {',
    '    return , @(Get-ChildItem -LiteralPath C:\\k)',
    '}',
    'function Get-Names {',
    '    return @(Get-ChildItem -LiteralPath C:\\k | ForEach-Object { $_.Name })',
    '}',
    '$things = Get-Things',
    '$names = @(Get-Names)',
    'Get-Names | ForEach-Object { $_ }',
    'function Remove-Thing([string]$Name) {',
    "    $ErrorActionPreference = 'Continue'",
    '    $output = & sc.exe delete $Name 2>&1 | Out-String',
    "    $ErrorActionPreference = 'Stop'",
    '    return $output',
    '}',
    "$b = $null; if ($null -eq $b) { $a = 'default' } else { $a = $b }",
    "$p = Join-Path 'C:\\k' 'bin'",
    "$q = [System.IO.Path]::Combine('C:\\k', 'bin', 'x')",
    "Set-Content -LiteralPath 'C:\\k\\a.txt' -Value 'x' -Encoding ascii",
    '$port = [int](@((Get-NetFirewallPortFilter -PolicyStore ActiveStore | Select-Object -First 1).LocalPort)[0])',
    '$request = ConvertFrom-Json -InputObject \'{"localPort":1}\'',
    '$n = [int]$request.localPort',
    '$utf8 = New-Object System.Text.UTF8Encoding $false',
    '1..3 | ForEach-Object -Process { $_ * 2 } | Where-Object Length -gt 0 | Sort-Object -Unique',
    "Get-Item -LiteralPath 'C:\\k' -ea SilentlyContinue -WarningAction SilentlyContinue",
    '$arrow = [char]0x2195',
    "$desktop = $PSVersionTable.PSEdition -eq 'Desktop'",
    '$IsWindows = $true',
    "$parsed = ConvertFrom-Json -InputObject '[1,2]'",
    'foreach ($i in $parsed) { $i }',
    '$null = & icacls.exe C:\\k > $null',
    "'a: 1' | Out-File -FilePath C:\\k\\a.conf -Encoding ascii",
    "$r = [regex]::Replace('a-b', '-', { param($m) '+' })",
  ].join('\n'),
};
