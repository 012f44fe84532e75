# The Windows PowerShell 5.1 gate (docs/ps51-gate.md). Run by PowerShell 7 (pwsh), it parses every script
# the operator sends with PowerShell's own parser and walks the syntax tree for what Windows PowerShell 5.1
# on Windows Server 2019/2022 would refuse or run differently: syntax newer than 5.1, commands and
# parameters missing from 5.1 (commands.json), .NET types and static members missing from .NET Framework
# 4.x (types.json), and 5.1 semantics that pwsh cannot show (native stderr under Stop, CIM array casts,
# unrolled array returns). Input on stdin: {"scripts":[{"name","text"}]}. Output on stdout: one JSON
# document {"findings":[{file,line,column,rule,message}],"inventory":{...}}.
param(
    [Parameter(Mandatory = $true)][string] $ProfileDir
)
$ErrorActionPreference = 'Stop'
# Errors reach the caller's message as plain text (no terminal colours).
$PSStyle.OutputRendering = 'PlainText'
Set-StrictMode -Version Latest

foreach ($part in @('gate-rules.ps1', 'gate-commands.ps1', 'gate-types.ps1', 'gate-semantics.ps1')) { . (Join-Path $PSScriptRoot $part) }

$commandsProfile = Get-Content -Raw -LiteralPath (Join-Path $ProfileDir 'commands.json') | ConvertFrom-Json -AsHashtable
$typesProfile = Get-Content -Raw -LiteralPath (Join-Path $ProfileDir 'types.json') | ConvertFrom-Json -AsHashtable
$gateProfile = New-GateProfile $commandsProfile $typesProfile

$request = [Console]::In.ReadToEnd() | ConvertFrom-Json
$parsed = foreach ($script in @($request.scripts)) {
    $tokens = $null
    $errors = $null
    $ast = [System.Management.Automation.Language.Parser]::ParseInput([string]$script.text, [string]$script.name, [ref]$tokens, [ref]$errors)
    # A function one gated script defines may be called by another (the invocation scripts call the module).
    foreach ($f in $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.FunctionDefinitionAst] }, $true)) { $gateProfile.Functions[$f.Name] = $true }
    [pscustomobject]@{ Name = [string]$script.name; Ast = $ast; Tokens = $tokens; Errors = @($errors) }
}
$findings = [System.Collections.Generic.List[object]]::new()
$inventory = [ordered]@{}
foreach ($p in @($parsed)) {
    $context = [pscustomobject]@{ File = $p.Name; Findings = $findings; Profile = $gateProfile; Commands = @{}; Types = @{} }
    foreach ($e in $p.Errors) { Add-GateFinding $context $e.Extent 'parse' $e.Message }
    if ($p.Errors.Count -eq 0) { Invoke-GateRules $context $p.Ast $p.Tokens }
    $commands = [ordered]@{}
    foreach ($name in @($context.Commands.Keys | Sort-Object)) { $commands[$name] = @($context.Commands[$name].Keys | Sort-Object) }
    $inventory[$p.Name] = [ordered]@{ commands = $commands; types = @($context.Types.Keys | Sort-Object) }
}
[Console]::Out.WriteLine((ConvertTo-Json -Depth 8 -Compress -InputObject ([ordered]@{ findings = $findings.ToArray(); inventory = $inventory })))
