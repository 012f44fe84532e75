# Windows PowerShell 5.1 behaviours that pwsh does not share, checked statically (review §1.5, §3.6).
using namespace System.Management.Automation.Language

function Get-GateScope($node) {
    $p = $node.Parent
    while ($null -ne $p -and $p -isnot [FunctionDefinitionAst]) { $p = $p.Parent }
    if ($null -ne $p) { return $p }
    $p = $node
    while ($null -ne $p.Parent) { $p = $p.Parent }
    return $p
}

# 5.1 wraps each stderr line of a native command whose error stream is redirected (2>&1, 2>file) in an
# ErrorRecord; under $ErrorActionPreference 'Stop' the first one ends the script (pwsh 7 does not). So the
# last assignment to $ErrorActionPreference before such a command, in the same function, must be 'Continue'.
function Test-GateNativeStderr($context, $command) {
    $redirected = @($command.Redirections | Where-Object { $_.FromStream -in @([RedirectionStream]::Error, [RedirectionStream]::All) })
    if ($redirected.Count -eq 0) { return }
    $name = Get-GateCommandName $command
    if ($null -ne $name) {
        $kind = Get-GateCommandKind $context.Profile $name
        if ($null -ne $kind -and $kind.Kind -in @('cmdlet', 'function')) { return }
    }
    $scope = Get-GateScope $command
    $start = $command.Extent.StartOffset
    $last = $null
    foreach ($a in $scope.FindAll({ param($n) $n -is [AssignmentStatementAst] -and $n.Left -is [VariableExpressionAst] -and ($n.Left.VariablePath.UserPath -replace '^(script|global|local|private):', '') -eq 'ErrorActionPreference' }, $true)) {
        if ($a.Extent.EndOffset -le $start -and ($null -eq $last -or $a.Extent.StartOffset -gt $last.Extent.StartOffset)) { $last = $a }
    }
    $value = if ($null -ne $last) { $last.Right.Extent.Text.Trim("'", '"', ' ') } else { $null }
    if ($value -ne 'Continue') {
        Add-GateFinding $context $redirected[0].Extent 'native-stderr-under-stop' "the error stream of a native command is redirected while `$ErrorActionPreference is not 'Continue' in this function: Windows PowerShell 5.1 turns the first stderr line into a terminating NativeCommandError under 'Stop'; set `$ErrorActionPreference = 'Continue' before it"
    }
}

# [int]$x.LocalPort: CIM array properties (string[] LocalPort of MSFT_NetProtocolPortFilter, ...) do not
# convert to a scalar; PowerShell throws for an array (review B1).
function Test-GateCimArrayCast($context, $node) {
    if ($node -isnot [ConvertExpressionAst]) { return }
    $type = $node.Type.TypeName
    if ($type -is [ArrayTypeName] -or $type -is [GenericTypeName]) { return }
    if ([string]$type.FullName -notin @('int', 'int32', 'long', 'int64', 'uint16', 'uint32', 'string', 'double', 'bool', 'System.Int32', 'System.Int64', 'System.String')) { return }
    $child = $node.Child
    if ($child -isnot [MemberExpressionAst] -or $child.Static -or $child.Member -isnot [StringConstantExpressionAst]) { return }
    $member = $child.Member.Value
    if ($context.Profile.CimArrays.ContainsKey($member)) {
        $cim = $context.Profile.CimArrays[$member]
        Add-GateFinding $context $node.Extent 'cim-array-cast' "[$($type.FullName)] cast of .$member, which is an array in CIM ($(@($cim['classes']) -join ', '): $($cim['type'])); a cast of an array to a scalar throws or joins: index it or keep the array"
    }
}

# The statement of $function that returns an array PowerShell will unroll: `return @(...)`,
# `return [T[]]...`, or `return $x` where $x was assigned an array expression in the same function.
function Find-GateArrayReturn($function) {
    $arrays = @{}
    foreach ($a in $function.Body.FindAll({ param($n) $n -is [AssignmentStatementAst] -and $n.Left -is [VariableExpressionAst] }, $true)) {
        if ($a.Right -is [CommandExpressionAst] -and (Test-GateArrayExpression $a.Right.Expression)) { $arrays[$a.Left.VariablePath.UserPath] = $true }
    }
    foreach ($r in $function.Body.FindAll({ param($n) $n -is [ReturnStatementAst] }, $true)) {
        $p = $r.Parent
        while ($p -isnot [ScriptBlockAst]) { $p = $p.Parent }
        if ($p -ne $function.Body -or $r.Pipeline -isnot [PipelineAst] -or $r.Pipeline.PipelineElements.Count -ne 1) { continue }
        $element = $r.Pipeline.PipelineElements[0]
        if ($element -isnot [CommandExpressionAst]) { continue }
        $e = $element.Expression
        if ((Test-GateArrayExpression $e) -or ($e -is [VariableExpressionAst] -and $arrays.ContainsKey($e.VariablePath.UserPath))) { return $r }
    }
    return $null
}

function Test-GateArrayExpression($e) {
    return ($e -is [ArrayExpressionAst]) -or ($e -is [ConvertExpressionAst] -and $e.Type.TypeName -is [ArrayTypeName])
}

# A function returning an array without the unary comma (`return , $x`) hands its caller $null for an
# empty array and the element itself for a one-element array. Each call that keeps the value (assigned,
# a hashtable value, returned again) must wrap the call in @() (review B2, B3).
function Test-GateArrayReturns($context, $ast) {
    $returns = @{}
    foreach ($f in $ast.FindAll({ param($n) $n -is [FunctionDefinitionAst] }, $true)) {
        $r = Find-GateArrayReturn $f
        if ($null -ne $r) { $returns[$f.Name] = $r }
    }
    if ($returns.Count -eq 0) { return }
    foreach ($c in $ast.FindAll({ param($n) $n -is [CommandAst] -and $null -ne $n.GetCommandName() }, $true)) {
        $name = $c.GetCommandName()
        if (-not $returns.ContainsKey($name)) { continue }
        $pipeline = $c.Parent
        if ($pipeline -isnot [PipelineAst] -or $pipeline.PipelineElements[-1] -ne $c) { continue }
        if ($pipeline.Parent -is [AssignmentStatementAst] -or $pipeline.Parent -is [HashtableAst] -or $pipeline.Parent -is [ReturnStatementAst]) {
            Add-GateFinding $context $c.Extent 'array-return-unrolled' "$name returns an array (line $($returns[$name].Extent.StartLineNumber)) that PowerShell unrolls: none arrives as `$null and one as the element itself; wrap this call in @() or return it with the unary comma (return , `$x)"
        }
    }
}

# ConvertFrom-Json of a JSON array: 5.1 writes the array as ONE object to the pipeline (PowerShell 6+
# enumerates it), so a command after it sees one item, the whole array.
function Test-GateConvertFromJsonPiped($context, $node) {
    if ($node -isnot [PipelineAst] -or $node.PipelineElements.Count -lt 2) { return }
    $elements = $node.PipelineElements
    for ($i = 0; $i -lt $elements.Count - 1; $i++) {
        $e = $elements[$i]
        if ($e -isnot [CommandAst]) { continue }
        $kind = Get-GateCommandKind $context.Profile ([string]$e.GetCommandName())
        if ($null -ne $kind -and $kind.Name -eq 'ConvertFrom-Json') {
            Add-GateFinding $context $e.Extent 'convertfrom-json-piped' 'ConvertFrom-Json piped on: Windows PowerShell 5.1 writes a JSON array as one object (PowerShell 6+ enumerates it); assign it to a variable first, then enumerate the variable (foreach, or pipe the variable)'
        }
    }
}

# Output written to a file with > or >>, or Out-File without -Encoding: Windows PowerShell 5.1 writes
# UTF-16LE with a BOM there (PowerShell 6+ writes UTF-8), which Go programs and config parsers misread.
function Test-GateUtf16Output($context, $node) {
    if ($node -is [FileRedirectionAst] -and $node.FromStream -in @([RedirectionStream]::Output, [RedirectionStream]::All)) {
        $target = $node.Location.Extent.Text
        if ($target -ne '$null') {
            Add-GateFinding $context $node.Extent 'utf16-output' "redirecting output to $target writes UTF-16LE in Windows PowerShell 5.1; use Set-Content -Encoding (ascii or utf8) or [System.IO.File]::WriteAllText"
        }
        return
    }
    if ($node -isnot [CommandAst]) { return }
    $kind = Get-GateCommandKind $context.Profile ([string]$node.GetCommandName())
    if ($null -eq $kind -or $kind.Name -ne 'Out-File') { return }
    foreach ($e in $node.CommandElements) {
        if ($e -is [CommandParameterAst] -and 'Encoding'.StartsWith($e.ParameterName, [StringComparison]::OrdinalIgnoreCase) -and $e.ParameterName.Length -ge 2) { return }
    }
    Add-GateFinding $context $node.Extent 'utf16-output' 'Out-File without -Encoding writes UTF-16LE in Windows PowerShell 5.1; give -Encoding (ascii or utf8)'
}
