# Commands and parameters against the Windows PowerShell 5.1 profile (commands.json).
using namespace System.Management.Automation.Language

# The parameter `$name` names on `$entry` (exact name or alias first, then a unique prefix, as PowerShell
# binds), or a string saying why it names none.
function Resolve-GateParameter($gateProfile, $entry, [string]$name) {
    $own = ConvertTo-GateDictionary $entry['parameters']
    $aliases = ConvertTo-GateDictionary $entry['parameterAliases']
    if ($own.ContainsKey($name)) { return [pscustomobject]@{ Name = $name; Kind = $own[$name] } }
    if ($aliases.ContainsKey($name)) { $target = $aliases[$name]; return [pscustomobject]@{ Name = $target; Kind = $own[$target] } }
    if ($gateProfile.Common.ContainsKey($name)) { return $gateProfile.Common[$name] }
    $candidates = @{}
    foreach ($k in $own.Keys) { if ($k.StartsWith($name, [StringComparison]::OrdinalIgnoreCase)) { $candidates[$k] = $own[$k] } }
    foreach ($k in $aliases.Keys) { if ($k.StartsWith($name, [StringComparison]::OrdinalIgnoreCase)) { $candidates[$aliases[$k]] = $own[$aliases[$k]] } }
    foreach ($k in $gateProfile.Common.Keys) {
        if ($k.StartsWith($name, [StringComparison]::OrdinalIgnoreCase)) { $candidates[$gateProfile.Common[$k].Name] = $gateProfile.Common[$k].Kind }
    }
    if ($candidates.Count -eq 1) { foreach ($k in $candidates.Keys) { return [pscustomobject]@{ Name = $k; Kind = $candidates[$k] } } }
    if ($candidates.Count -gt 1) { return "-$name is ambiguous in Windows PowerShell 5.1 ($(@($candidates.Keys | Sort-Object) -join ', '))" }
    return "-$name is not a parameter of this command in Windows PowerShell 5.1"
}

function Get-GateCommandName($command) {
    $name = $command.GetCommandName()
    if ($null -ne $name) { return $name }
    $first = $command.CommandElements[0]
    if ($first -is [ExpandableStringExpressionAst]) { return $first.Value }
    return $null
}

# What kind of command `$name` is: cmdlet (profile entry), function (defined in a gated script),
# executable, shipped script, or $null when Windows PowerShell 5.1 has no such command.
function Get-GateCommandKind($gateProfile, [string]$name) {
    $target = $name
    if ($gateProfile.Aliases.ContainsKey($name)) { $target = $gateProfile.Aliases[$name] }
    if ($gateProfile.Commands.ContainsKey($target)) { return [pscustomobject]@{ Kind = 'cmdlet'; Name = $target; Entry = $gateProfile.Commands[$target] } }
    if ($gateProfile.Functions.ContainsKey($name)) { return [pscustomobject]@{ Kind = 'function'; Name = $name } }
    $leaf = ($name -split '[\\/]')[-1]
    if ($gateProfile.Executables.ContainsKey($leaf) -or $gateProfile.Executables.ContainsKey("$leaf.exe")) { return [pscustomobject]@{ Kind = 'executable'; Name = $leaf } }
    if ($gateProfile.Shipped.ContainsKey($name)) { return [pscustomobject]@{ Kind = 'shipped'; Name = $name } }
    return $null
}

function Test-GateArgumentValue($context, $entry, $parameter, $argument) {
    $values = ConvertTo-GateDictionary $entry['acceptedValues']
    if (-not $values.ContainsKey($parameter.Name)) { return }
    # Only a plain word is checked: a flags expression ('Hidden,System') or a number is left to the binder.
    if ($argument -isnot [StringConstantExpressionAst] -or $argument.Value -notmatch '^[A-Za-z][A-Za-z0-9]*$') { return }
    if (@($values[$parameter.Name]) -notcontains $argument.Value) {
        Add-GateFinding $context $argument.Extent 'parameter-value' "'$($argument.Value)' is not a value of -$($parameter.Name) in Windows PowerShell 5.1 (it takes $(@($values[$parameter.Name]) -join ', '))"
    }
}

# Parameters named and positional arguments counted the way the binder would see them.
function Test-GateParameters($context, $command, $kind) {
    $entry = $kind.Entry
    $elements = $command.CommandElements
    $used = $context.Commands[$kind.Name]
    $positional = 0
    $checkable = $true
    for ($i = 1; $i -lt $elements.Count; $i++) {
        $element = $elements[$i]
        if ($element -is [VariableExpressionAst] -and $element.Splatted) { $checkable = $false; continue }
        if ($element -isnot [CommandParameterAst]) { $positional++; continue }
        $parameter = Resolve-GateParameter $context.Profile $entry $element.ParameterName
        if ($parameter -is [string]) {
            Add-GateFinding $context $element.Extent 'parameter-unknown' "$($kind.Name) $parameter"
            $checkable = $false
            continue
        }
        $used[$parameter.Name] = $true
        $argument = $element.Argument
        if ($null -eq $argument -and $parameter.Kind -ne 'switch' -and $i + 1 -lt $elements.Count) { $i++; $argument = $elements[$i] }
        if ($null -ne $argument) { Test-GateArgumentValue $context $entry $parameter $argument }
    }
    $max = [int]$entry['positional']
    if ($checkable -and $max -ge 0 -and $positional -gt $max) {
        Add-GateFinding $context $command.Extent 'positional-count' "$($kind.Name) takes at most $max positional argument(s) in Windows PowerShell 5.1; this call passes $positional"
    }
}

function Test-GateCommand($context, $command) {
    $name = Get-GateCommandName $command
    if ($null -eq $name) { return }
    $kind = Get-GateCommandKind $context.Profile $name
    if ($null -eq $kind) {
        Add-GateFinding $context $command.CommandElements[0].Extent 'command-unknown' "$name is not a command of Windows PowerShell 5.1 on Windows Server 2019/2022 (commands.json), a function of the gated scripts, a listed executable or a script the operator ships"
        return
    }
    if ($kind.Kind -ne 'cmdlet') { return }
    if (-not $context.Commands.ContainsKey($kind.Name)) { $context.Commands[$kind.Name] = @{} }
    Test-GateParameters $context $command $kind
    if ($kind.Name -eq 'New-Object') { Test-GateNewObject $context $command }
}
