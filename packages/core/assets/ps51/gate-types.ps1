# .NET types and static members against .NET Framework 4.x as Windows PowerShell 5.1 loads it (types.json).
using namespace System.Management.Automation.Language

# The profile entry for a type name (an accelerator such as [int], a full name, or a name PowerShell
# completes with "System."), or $null.
function Find-GateType($gateProfile, [string]$name) {
    if ($gateProfile.Accelerators.ContainsKey($name)) { return $gateProfile.Types[[string]$gateProfile.Accelerators[$name]['type']] }
    if ($gateProfile.Types.ContainsKey($name)) { return $gateProfile.Types[$name] }
    if ($gateProfile.Types.ContainsKey("System.$name")) { return $gateProfile.Types["System.$name"] }
    return $null
}

function Test-GateTypeName($context, $typeName, $extent) {
    if ($typeName -is [ArrayTypeName]) { Test-GateTypeName $context $typeName.ElementType $extent; return }
    if ($typeName -is [GenericTypeName]) {
        Test-GateTypeName $context $typeName.TypeName $extent
        foreach ($a in $typeName.GenericArguments) { Test-GateTypeName $context $a $extent }
        return
    }
    Test-GateTypeText $context ([string]$typeName.FullName) $extent
}

function Test-GateTypeText($context, [string]$name, $extent) {
    $context.Types[$name] = $true
    if ($null -eq (Find-GateType $context.Profile $name) -and -not $context.Profile.Accelerators.ContainsKey($name)) {
        Add-GateFinding $context $extent 'type-unknown' "[$name] is not in the .NET Framework 4.x / Windows PowerShell 5.1 type list (types.json)"
    }
}

# [Type]::Member: when the profile lists the type's static members, the member must be one of them.
function Test-GateStaticMember($context, $node) {
    if (-not $node.Static -or $node.Expression -isnot [TypeExpressionAst] -or $node.Member -isnot [StringConstantExpressionAst]) { return }
    $member = $node.Member.Value
    if ($member -eq 'new') { return }
    $entry = Find-GateType $context.Profile ([string]$node.Expression.TypeName.FullName)
    if ($null -eq $entry -or -not $entry.ContainsKey('static')) { return }
    if (@($entry['static']) -notcontains $member) {
        Add-GateFinding $context $node.Member.Extent 'static-member-unknown' "[$($node.Expression.TypeName.FullName)]::$member is not a static member of that type in .NET Framework 4.x (types.json)"
    }
}

# New-Object's type name (the first positional argument or -TypeName) is a type too.
function Test-GateNewObject($context, $command) {
    $elements = $command.CommandElements
    for ($i = 1; $i -lt $elements.Count; $i++) {
        $e = $elements[$i]
        if ($e -is [CommandParameterAst]) {
            if ('TypeName'.StartsWith($e.ParameterName, [StringComparison]::OrdinalIgnoreCase) -and $i + 1 -lt $elements.Count) { $i++; $e = $elements[$i] }
            elseif ('ComObject'.StartsWith($e.ParameterName, [StringComparison]::OrdinalIgnoreCase)) { return }
            else { $i++; continue }
        }
        if ($e -is [StringConstantExpressionAst]) { Test-GateTypeText $context $e.Value $e.Extent }
        return
    }
}
