# The registry (HKLM:), the machine Root store (Cert:) and folder ACLs: drives and types Linux has not.
# Other paths go to PowerShell's own cmdlets. Sources:
#   Registry provider: https://learn.microsoft.com/en-us/powershell/module/microsoft.powershell.core/about/about_registry_provider?view=powershell-5.1
#   RegistryKey.GetValue: https://learn.microsoft.com/en-us/dotnet/api/microsoft.win32.registrykey.getvalue
#   Certificate provider: https://learn.microsoft.com/en-us/powershell/module/microsoft.powershell.security/about/about_certificate_provider?view=powershell-5.1
#   Get-Acl / DirectorySecurity: https://learn.microsoft.com/en-us/dotnet/api/system.security.accesscontrol.directorysecurity
#   icacls: https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/icacls

# A registry key as Get-Item returns it: Name, Property (value names), GetValue(name[, default[, options]]).
function global:New-WmcoSimRegistryKey {
    param([string] $Path, [object] $Values)
    $names = @($Values.PSObject.Properties | ForEach-Object { $_.Name })
    $key = [pscustomobject]@{ PSTypeName = 'Microsoft.Win32.RegistryKey'; Name = ($Path -replace '^HKLM:\\', 'HKEY_LOCAL_MACHINE\'); Property = [string[]]$names; PSPath = $Path; WmcoValues = $Values }
    $key | Add-Member -MemberType ScriptMethod -Name GetValue -Value {
        param([string] $Name, $Default = $null, $Options = $null)
        $property = $this.WmcoValues.PSObject.Properties | Where-Object { $_.Name -eq $Name } | Select-Object -First 1
        if ($null -eq $property) { return $Default }
        # REG_MULTI_SZ is a string[], REG_DWORD an int, REG_SZ a string.
        if ($property.Value -is [array]) { return , [string[]]@($property.Value) }
        if ($property.Value -is [long]) { return [int]$property.Value }
        return [string]$property.Value
    }
    $key | Add-Member -MemberType ScriptMethod -Name GetValueNames -Value { return [string[]]$this.Property }
    return $key
}

function global:Get-WmcoSimRegistryKey {
    param([string] $Path)
    $values = Invoke-WmcoSimCall 'registry.read' @{ path = $Path.TrimEnd('\') }
    if ($null -eq $values) { return $null }
    return New-WmcoSimRegistryKey $Path.TrimEnd('\') $values
}

# A certificate of Cert:\LocalMachine\Root (X509Certificate2's Thumbprint and FriendlyName).
function global:Get-WmcoSimCertificates {
    return @(Invoke-WmcoSimCall 'certs.list' | ForEach-Object { $_ } | ForEach-Object {
            [pscustomobject]@{ PSTypeName = 'System.Security.Cryptography.X509Certificates.X509Certificate2'; Thumbprint = [string]$_.thumbprint; FriendlyName = [string]$_.friendlyName }
        })
}

function global:Get-WmcoSimCertificate {
    param([string] $Path)
    if ($Path -notmatch '^Cert:\\LocalMachine\\Root\\([0-9A-Fa-f]+)$') { return $null }
    $thumbprint = $Matches[1]
    return Get-WmcoSimCertificates | Where-Object { $_.Thumbprint -eq $thumbprint } | Select-Object -First 1
}

function global:Get-Item {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [switch] $Force
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (Test-WmcoSimDrive $target 'HKLM') {
        $key = Get-WmcoSimRegistryKey $target
        if ($null -eq $key) { Write-WmcoSimError $PSCmdlet "Cannot find path '$target' because it does not exist." }
        return $key
    }
    if (Test-WmcoSimDrive $target 'Cert') {
        $cert = Get-WmcoSimCertificate $target
        if ($null -eq $cert) { Write-WmcoSimError $PSCmdlet "Cannot find path '$target' because it does not exist." }
        return $cert
    }
    Microsoft.PowerShell.Management\Get-Item @PSBoundParameters
}

function global:Get-ItemProperty {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [Parameter(Position = 1)] [string[]] $Name
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (-not (Test-WmcoSimDrive $target 'HKLM')) { return Microsoft.PowerShell.Management\Get-ItemProperty @PSBoundParameters }
    $values = Invoke-WmcoSimCall 'registry.read' @{ path = $target.TrimEnd('\') }
    if ($null -eq $values) { Write-WmcoSimError $PSCmdlet "Cannot find path '$target' because it does not exist."; return }
    $out = [ordered]@{}
    foreach ($p in $values.PSObject.Properties) {
        if ($p.Value -is [long]) { $out[$p.Name] = [int]$p.Value } elseif ($p.Value -is [array]) { $out[$p.Name] = [string[]]@($p.Value) } else { $out[$p.Name] = $p.Value }
    }
    $out['PSPath'] = $target
    return [pscustomobject]$out
}

function global:Set-ItemProperty {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [Parameter(Mandatory = $true, Position = 1)] [string] $Name,
        [Parameter(Position = 2)] [object] $Value,
        [string] $Type
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (-not (Test-WmcoSimDrive $target 'HKLM')) { return Microsoft.PowerShell.Management\Set-ItemProperty @PSBoundParameters }
    $data = $Value
    if ($Type -eq 'MultiString') { $data = [string[]]@($Value) }
    try { $null = Invoke-WmcoSimCall 'registry.set' @{ path = $target.TrimEnd('\'); name = $Name; value = $data } }
    catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message }
}

function global:Remove-ItemProperty {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [Parameter(Mandatory = $true, Position = 1)] [string[]] $Name
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (-not (Test-WmcoSimDrive $target 'HKLM')) { return Microsoft.PowerShell.Management\Remove-ItemProperty @PSBoundParameters }
    foreach ($n in $Name) {
        try { $null = Invoke-WmcoSimCall 'registry.remove' @{ path = $target.TrimEnd('\'); name = $n } }
        catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message 'InvalidArgument' }
    }
}

function global:Test-Path {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [string] $PathType,
        [switch] $IsValid
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (Test-WmcoSimDrive $target 'HKLM') { return $null -ne (Get-WmcoSimRegistryKey $target) }
    if (Test-WmcoSimDrive $target 'Cert') { return $null -ne (Get-WmcoSimCertificate $target) }
    Microsoft.PowerShell.Management\Test-Path @PSBoundParameters
}

function global:Get-ChildItem {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [Parameter(Position = 1)] [string] $Filter,
        [switch] $File,
        [switch] $Directory,
        [switch] $Recurse,
        [switch] $Force
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (Test-WmcoSimDrive $target 'Cert') {
        if ($target.TrimEnd('\') -ne 'Cert:\LocalMachine\Root') { throw "the simulated host models Cert:\LocalMachine\Root only" }
        return Get-WmcoSimCertificates
    }
    Microsoft.PowerShell.Management\Get-ChildItem @PSBoundParameters
}

function global:Remove-Item {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string[]] $Path,
        [string[]] $LiteralPath,
        [switch] $Recurse,
        [switch] $Force
    )
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (Test-WmcoSimDrive $target 'Cert') {
        $cert = Get-WmcoSimCertificate $target
        if ($null -eq $cert) { Write-WmcoSimError $PSCmdlet "Cannot find path '$target' because it does not exist."; return }
        $null = Invoke-WmcoSimCall 'certs.remove' @{ thumbprint = $cert.Thumbprint }
        return
    }
    Microsoft.PowerShell.Management\Remove-Item @PSBoundParameters
}

# ACLs: the model keeps each folder's owner and DACL (folder-security.ts); Get-Acl reads the effective one.
function global:New-WmcoSimSid {
    param([string] $Value)
    $sid = [pscustomobject]@{ PSTypeName = 'System.Security.Principal.SecurityIdentifier'; Value = $Value }
    $sid | Add-Member -MemberType ScriptMethod -Name ToString -Value { return $this.Value } -Force
    return $sid
}

function global:New-WmcoSimAccessRule {
    param([object[]] $Arguments)
    return [pscustomobject]@{ PSTypeName = 'System.Security.AccessControl.FileSystemAccessRule'; IdentityReference = $Arguments[0]
        FileSystemRights = [string]$Arguments[1]; InheritanceFlags = [string]$Arguments[2]; PropagationFlags = [string]$Arguments[3]
        AccessControlType = [string]$Arguments[4]; IsInherited = $false }
}

function global:New-WmcoSimDirectorySecurity {
    $acl = [pscustomobject]@{ PSTypeName = 'System.Security.AccessControl.DirectorySecurity'; AreAccessRulesProtected = $false; Owner = $null; Rules = @(); NullDacl = $false }
    $acl | Add-Member -MemberType ScriptMethod -Name SetOwner -Value { param($Sid) $this.Owner = $Sid }
    $acl | Add-Member -MemberType ScriptMethod -Name GetOwner -Value { param($Type) return $this.Owner }
    $acl | Add-Member -MemberType ScriptMethod -Name SetAccessRuleProtection -Value { param($Protected, $Preserve) $this.AreAccessRulesProtected = [bool]$Protected }
    $acl | Add-Member -MemberType ScriptMethod -Name AddAccessRule -Value { param($Rule) $this.Rules = @($this.Rules) + @($Rule) }
    $acl | Add-Member -MemberType ScriptMethod -Name GetAccessRules -Value { param($Explicit, $Inherited, $Type) return , @($this.Rules) }
    # ObjectSecurity.GetSecurityDescriptorSddlForm: only the DACL's presence and its protection are modelled here.
    $acl | Add-Member -MemberType ScriptMethod -Name GetSecurityDescriptorSddlForm -Value {
        param($Sections)
        if ($this.NullDacl) { return 'D:NO_ACCESS_CONTROL' }
        if ($this.AreAccessRulesProtected) { return 'D:P' }
        return 'D:AI'
    }
    return $acl
}

# The operator's ACL: owner Administrators, protected, SYSTEM and Administrators full control.
function global:Test-WmcoSimOperatorAcl {
    param([object] $Acl)
    $sids = @($Acl.Rules | ForEach-Object { [string]$_.IdentityReference.Value } | Sort-Object -Unique)
    return $Acl.AreAccessRulesProtected -and [string]$Acl.Owner.Value -eq 'S-1-5-32-544' -and
        ($sids -join ',') -eq 'S-1-5-18,S-1-5-32-544' -and -not ($Acl.Rules | Where-Object { $_.AccessControlType -ne 'Allow' })
}

function global:Get-Acl {
    [CmdletBinding()]
    param([Parameter(Position = 0)] [string[]] $Path, [string[]] $LiteralPath)
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (-not (Microsoft.PowerShell.Management\Test-Path -LiteralPath $target)) { Write-WmcoSimError $PSCmdlet "Cannot find path '$target' because it does not exist."; return }
    $model = Invoke-WmcoSimCall 'acl.get' @{ path = $target }
    $acl = New-WmcoSimDirectorySecurity
    $acl.SetOwner((New-WmcoSimSid ([string]$model.owner)))
    $acl.SetAccessRuleProtection([bool]$model.protected, $false)
    $acl.NullDacl = [bool]$model.nullDacl
    # Explicit entries first, then inherited ones (canonical order), each as a FileSystemAccessRule reads.
    foreach ($ace in @($model.aces)) {
        $acl.AddAccessRule([pscustomobject]@{ PSTypeName = 'System.Security.AccessControl.FileSystemAccessRule'
                IdentityReference = (New-WmcoSimSid ([string]$ace.sid)); FileSystemRights = [int]$ace.rights
                InheritanceFlags = $(if ($ace.inherit) { 'ContainerInherit, ObjectInherit' } else { 'None' })
                PropagationFlags = $(if ($ace.inheritOnly) { 'InheritOnly' } else { 'None' })
                AccessControlType = $(if ($ace.allow) { 'Allow' } else { 'Deny' }); IsInherited = [bool]$ace.inherited })
    }
    return $acl
}

# DirectoryInfo.Create(DirectorySecurity) of .NET Framework (absent from .NET on Linux): the folder is made
# on disk and given the ACL in the model; only the operator's ACL is modelled.
function global:New-WmcoSimDirectoryInfo {
    param([string] $NativePath)
    $info = Microsoft.PowerShell.Utility\New-Object System.IO.DirectoryInfo $NativePath
    $info | Add-Member -MemberType ScriptMethod -Name Create -Force -Value {
        param($Security)
        if (-not (Test-WmcoSimOperatorAcl $Security)) { throw "the simulated host models only the operator's folder ACL (SYSTEM and Administrators, protected)" }
        $root = (Get-PSDrive -Name C).Root.TrimEnd('/')
        $null = [System.IO.Directory]::CreateDirectory($this.FullName)
        $windows = 'C:\' + $this.FullName.Substring($root.Length).TrimStart('/').Replace('/', '\')
        $null = Invoke-WmcoSimCall 'acl.restrict' @{ path = $windows }
    }
    return $info
}

function global:Set-Acl {
    [CmdletBinding()]
    param([Parameter(Position = 0)] [string[]] $Path, [string[]] $LiteralPath, [Parameter(Mandatory = $true)] [object] $AclObject)
    $target = @($LiteralPath) + @($Path) | Where-Object { $null -ne $_ } | Select-Object -First 1
    if (-not (Test-WmcoSimOperatorAcl $AclObject)) { throw "the simulated host models only the operator's folder ACL (SYSTEM and Administrators, protected)" }
    try { $null = Invoke-WmcoSimCall 'acl.restrict' @{ path = $target } } catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message }
}

# icacls <dir> /reset /t /c /q: the entries of everything below are replaced by what it inherits.
function global:icacls.exe {
    $global:LASTEXITCODE = 0
    if (-not (Microsoft.PowerShell.Management\Test-Path -LiteralPath ([string]$args[0]))) {
        $global:LASTEXITCODE = 2
        return "$($args[0]): The system cannot find the file specified."
    }
    if (@($args) -contains '/reset' -and @($args) -contains '/t') { $null = Invoke-WmcoSimCall 'acl.resetBelow' @{ path = [string]$args[0] } }
}
