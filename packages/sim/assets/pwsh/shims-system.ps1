# The machine: Containers feature, computer name, restart, Defender, instance metadata, ipconfig, and the
# payload's hns.psm1 (its HNS functions are the shims above). Sources:
#   Get-WindowsOptionalFeature: https://learn.microsoft.com/en-us/powershell/module/dism/get-windowsoptionalfeature?view=windowsserver2022-ps
#   Install-WindowsFeature: https://learn.microsoft.com/en-us/powershell/module/servermanager/install-windowsfeature?view=windowsserver2022-ps
#   Rename-Computer: https://learn.microsoft.com/en-us/powershell/module/microsoft.powershell.management/rename-computer?view=powershell-5.1
#   shutdown: https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/shutdown
#   Add-MpPreference: https://learn.microsoft.com/en-us/powershell/module/defender/add-mppreference?view=windowsserver2022-ps
#   ipconfig: https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/ipconfig
#   EC2 instance metadata: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html

function global:Get-WindowsOptionalFeature {
    [CmdletBinding()]
    param([switch] $Online, [Parameter(Mandatory = $true)] [string] $FeatureName)
    if ($FeatureName -ne 'Containers') { Write-WmcoSimError $PSCmdlet "Feature name $FeatureName is unknown."; return }
    return [pscustomobject]@{ PSTypeName = 'Microsoft.Dism.Commands.AdvancedFeatureObject'; FeatureName = 'Containers'; State = [string](Invoke-WmcoSimCall 'feature.state') }
}

function global:Install-WindowsFeature {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)] [string[]] $Name)
    $changed = $false
    foreach ($n in $Name) { if (Invoke-WmcoSimCall 'feature.install' @{ name = $n }) { $changed = $true } }
    $restart = 'No'
    if ($changed) { $restart = 'Yes' }
    return [pscustomobject]@{ PSTypeName = 'Microsoft.Windows.ServerManager.Commands.FeatureOperationResult'; Success = $true; RestartNeeded = $restart; ExitCode = 'SuccessRestartRequired' }
}

function global:Rename-Computer {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)] [string] $NewName, [switch] $Force, [switch] $Restart)
    if ($NewName -notmatch '^[A-Za-z0-9-]{1,15}$' -or $NewName -match '^[0-9]+$') {
        Write-WmcoSimError $PSCmdlet "Skip computer '$env:COMPUTERNAME' with new name '$NewName' because the new name is not valid." 'InvalidArgument'
        return
    }
    $null = Invoke-WmcoSimCall 'host.rename' @{ name = $NewName }
    Write-Warning 'The changes will take effect after you restart the computer.'
}

# shutdown.exe /r /t N: the restart comes once the answer in flight is out.
function global:shutdown.exe {
    $global:LASTEXITCODE = 0
    if ($args -notcontains '/r') { throw 'the simulated host models shutdown /r only' }
    $null = Invoke-WmcoSimCall 'host.reboot'
}

function global:Add-MpPreference {
    [CmdletBinding()]
    param([string[]] $ExclusionPath, [string[]] $ExclusionProcess)
    $null = Invoke-WmcoSimCall 'defender.exclude' @{ paths = [string[]](@($ExclusionPath) + @($ExclusionProcess) | Where-Object { $_ }) }
}

function global:Invoke-RestMethod {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)] [uri] $Uri, [switch] $UseBasicParsing, [string] $Method = 'Get', [hashtable] $Headers)
    if ($Uri.Host -ne '169.254.169.254') { return Microsoft.PowerShell.Utility\Invoke-RestMethod @PSBoundParameters }
    try { return [string](Invoke-WmcoSimCall 'metadata.get' @{ uri = $Uri.AbsoluteUri }) }
    catch { Write-WmcoSimError $PSCmdlet 'Unable to connect to the remote server' 'ConnectionError' }
}

function global:ipconfig {
    $info = Invoke-WmcoSimCall 'host.ipconfig'
    return @('', 'Windows IP Configuration', '', "   Host Name . . . . . . . . . . . . : $($info.hostname)",
        "   Primary Dns Suffix  . . . . . . . : $($info.dnsSuffix)", '   Node Type . . . . . . . . . . . . : Hybrid', '')
}

# The payload's hns.psm1 stands in for upstream's; its functions are the HNS shims.
function global:Import-Module {
    [CmdletBinding()]
    param([Parameter(Position = 0)] [string[]] $Name, [switch] $DisableNameChecking, [switch] $Force)
    if (@($Name).Count -eq 1 -and (Split-Path -Leaf ([string]$Name[0])) -eq 'hns.psm1') {
        if (-not (Microsoft.PowerShell.Management\Test-Path -LiteralPath ([string]$Name[0]) -PathType Leaf)) {
            Write-WmcoSimError $PSCmdlet "The specified module '$($Name[0])' was not loaded because no valid module file was found in any module directory." 'ResourceUnavailable'
        }
        return
    }
    Microsoft.PowerShell.Core\Import-Module @PSBoundParameters
}

# Windows path semantics for Split-Path (pwsh on Linux answers C:/k for C:\k\x).
function global:Split-Path {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true)] [string[]] $Path, [switch] $Leaf, [switch] $Parent)
    process {
        foreach ($p in $Path) {
            $cut = $p.TrimEnd('\', '/').LastIndexOfAny([char[]]@('\', '/'))
            if ($Leaf) { $p.Substring($cut + 1) } elseif ($cut -le 2) { $p.Substring(0, [Math]::Min($p.Length, 3)) } else { $p.Substring(0, $cut) }
        }
    }
}

# Windows path semantics for Join-Path on drive paths (pwsh on Linux joins C:\k and x as C:/k/x).
function global:Join-Path {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true)] [string[]] $Path, [Parameter(Mandatory = $true, Position = 1)] [string] $ChildPath)
    process {
        foreach ($p in $Path) {
            if ($p -notmatch '^[A-Za-z]:\\') { Microsoft.PowerShell.Management\Join-Path -Path $p -ChildPath $ChildPath; continue }
            $p.TrimEnd('\') + '\' + $ChildPath.TrimStart('\')
        }
    }
}
