# The rules of the Windows PowerShell 5.1 gate (gate.ps1). Each rule adds findings with the line and
# column of the construct; the rule ids are listed in docs/ps51-gate.md.
using namespace System.Management.Automation.Language

function New-GateDictionary {
    return , ([System.Collections.Generic.Dictionary[string, object]]::new([System.StringComparer]::OrdinalIgnoreCase))
}

function ConvertTo-GateDictionary($object) {
    $dict = New-GateDictionary
    if ($null -ne $object) { foreach ($k in $object.Keys) { $dict[$k] = $object[$k] } }
    return , $dict
}

# The commands, parameters, executables, types and CIM array properties of Windows PowerShell 5.1.
function New-GateProfile($commands, $types) {
    $common = New-GateDictionary
    $parameters = $commands['commonParameters']['parameters']
    foreach ($name in $parameters.Keys) {
        $common[$name] = [pscustomobject]@{ Name = $name; Kind = $parameters[$name]['kind'] }
        foreach ($a in @($parameters[$name]['aliases'])) { if ($a) { $common[$a] = $common[$name] } }
    }
    $aliasTargets = New-GateDictionary
    foreach ($name in $commands['aliases'].Keys) { $aliasTargets[$name] = $commands['aliases'][$name]['command'] }
    # Case-sensitive on purpose: CIM properties are PascalCase (LocalPort) and the module's own request
    # fields camelCase (localPort), so the documented spelling tells a CIM property from a request field.
    $cimArrays = [System.Collections.Generic.Dictionary[string, object]]::new([System.StringComparer]::Ordinal)
    foreach ($k in $types['cimArrayProperties'].Keys) { $cimArrays[$k] = $types['cimArrayProperties'][$k] }
    return [pscustomobject]@{
        Commands     = ConvertTo-GateDictionary $commands['commands']
        Aliases      = $aliasTargets
        Common       = $common
        Executables  = ConvertTo-GateDictionary $commands['executables']
        Shipped      = ConvertTo-GateDictionary $commands['shippedScripts']
        Types        = ConvertTo-GateDictionary $types['types']
        Accelerators = ConvertTo-GateDictionary $types['accelerators']
        CimArrays    = $cimArrays
        Functions    = New-GateDictionary
    }
}

function Add-GateFinding($context, $extent, [string]$rule, [string]$message) {
    $context.Findings.Add([ordered]@{
            file    = $context.File
            line    = $extent.StartLineNumber
            column  = $extent.StartColumnNumber
            rule    = $rule
            message = $message
        })
}

# --- syntax newer than 5.1 ---------------------------------------------------------------------------

function Test-GateSyntax($context, $node) {
    if ($node -is [TernaryExpressionAst]) {
        Add-GateFinding $context $node.Extent 'ps7-ternary' 'the ternary operator (a ? b : c) is PowerShell 7.0+; use if/else'
    } elseif ($node -is [PipelineChainAst]) {
        Add-GateFinding $context $node.Extent 'ps7-pipeline-chain' "pipeline chain operators && and || are PowerShell 7.0+; use if (`$?) or try/catch"
    } elseif ($node -is [BinaryExpressionAst] -and $node.Operator -eq [TokenKind]::QuestionQuestion) {
        Add-GateFinding $context $node.Extent 'ps7-null-coalescing' 'the null-coalescing operator ?? is PowerShell 7.0+; use if ($null -eq ...)'
    } elseif ($node -is [AssignmentStatementAst] -and $node.Operator -eq [TokenKind]::QuestionQuestionEquals) {
        Add-GateFinding $context $node.Extent 'ps7-null-coalescing' 'the null-coalescing assignment ??= is PowerShell 7.0+; use if ($null -eq ...)'
    } elseif (($node -is [MemberExpressionAst] -or $node -is [IndexExpressionAst]) -and $node.NullConditional) {
        Add-GateFinding $context $node.Extent 'ps7-null-conditional' 'null-conditional access ?. and ?[] is PowerShell 7.0+; test for $null first'
    } elseif ($node -is [ScriptBlockAst] -and $null -ne $node.CleanBlock) {
        Add-GateFinding $context $node.CleanBlock.Extent 'ps7-clean-block' 'the clean block is PowerShell 7.3+; use try/finally'
    } elseif ($node -is [PipelineAst] -and $node.Background) {
        Add-GateFinding $context $node.Extent 'ps7-background' 'a trailing & (background job) is PowerShell 6.0+; use Start-Job'
    } elseif ($node -is [BinaryExpressionAst] -and $node.Operator -in @([TokenKind]::Ireplace, [TokenKind]::Creplace) -and
        $node.Right -is [ArrayLiteralAst] -and @($node.Right.Elements)[-1] -is [ScriptBlockExpressionAst]) {
        Add-GateFinding $context $node.Extent 'ps7-replace-scriptblock' 'a script block as -replace substitution is PowerShell 6.1+; use [regex]::Replace'
    }
}

# Automatic variables PowerShell 6+ defines and 5.1 does not: there they read as $null, or throw under
# Set-StrictMode (the module runs in strict mode).
$script:Ps7Variables = @('IsWindows', 'IsLinux', 'IsMacOS', 'IsCoreCLR', 'PSStyle', 'EnabledExperimentalFeatures')

function Test-GateVariable($context, $node) {
    if ($node -isnot [VariableExpressionAst]) { return }
    $name = $node.VariablePath.UserPath -replace '^(global|script|local):', ''
    if ($script:Ps7Variables -notcontains $name) { return }
    if ($node.Parent -is [AssignmentStatementAst] -and $node.Parent.Left -eq $node) { return }
    Add-GateFinding $context $node.Extent 'ps7-variable' "`$$name is an automatic variable of PowerShell 6+; Windows PowerShell 5.1 does not define it (it reads as `$null, or fails under Set-StrictMode): test `$PSVersionTable.PSEdition or the OS another way"
}

function Test-GateTokens($context, $tokens) {
    foreach ($t in @($tokens)) {
        if ($t.Kind -in @([TokenKind]::StringExpandable, [TokenKind]::HereStringExpandable) -and $t.Text -match '`u\{') {
            Add-GateFinding $context $t.Extent 'ps7-unicode-escape' 'the `u{...} escape is PowerShell 6.0+; use [char]0x....'
        }
    }
}

# Every rule over one parsed script.
function Invoke-GateRules($context, $ast, $tokens) {
    Test-GateTokens $context $tokens
    foreach ($node in $ast.FindAll({ $true }, $true)) {
        Test-GateSyntax $context $node
        Test-GateVariable $context $node
        Test-GateConvertFromJsonPiped $context $node
        Test-GateUtf16Output $context $node
        if ($node -is [CommandAst]) { Test-GateCommand $context $node; Test-GateNativeStderr $context $node }
        elseif ($node -is [TypeExpressionAst]) { Test-GateTypeName $context $node.TypeName $node.Extent }
        elseif ($node -is [TypeConstraintAst]) { Test-GateTypeName $context $node.TypeName $node.Extent }
        elseif ($node -is [MemberExpressionAst]) { Test-GateStaticMember $context $node }
        elseif ($node -is [ConvertExpressionAst]) { Test-GateCimArrayCast $context $node }
    }
    Test-GateArrayReturns $context $ast
}
