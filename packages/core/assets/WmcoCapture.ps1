# wmco hostcheck: a read-only capture of what the Windows cmdlets, CIM classes and .NET types the host
# module reads return on this host, for the Pester suite's fixtures (docs/real-windows-check.md).
# It changes nothing: every command below only reads. Runs on Windows PowerShell 5.1; its output is one
# line per source, "wmco-capture <name> <json>", then "wmco-capture-done <count>".
# Each item is {"type": <first PowerShell type name>, "value": {property: value}, "types": {property:
# <GetType().FullName>}}; dates are ISO 8601 strings and enums their names, with their real type in "types".
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
# Windows PowerShell 5.1 gives System.Array an extended Count property, so an array that reaches
# ConvertTo-Json wrapped in a PSObject is written as {"value":[...],"Count":n}. This session does not need it.
Remove-TypeData -TypeName System.Array -ErrorAction SilentlyContinue

function ConvertTo-WmcoCaptureValue($value) {
    if ($null -eq $value) { return $null }
    if ($value -is [datetime]) { return $value.ToUniversalTime().ToString('o') }
    if ($value -is [enum]) { return $value.ToString() }
    if ($value -is [array]) { return , [object[]]@($value | ForEach-Object { ConvertTo-WmcoCaptureValue $_ }) }
    return $value
}

function ConvertTo-WmcoCaptureItem($object, [string[]]$Properties) {
    $values = [ordered]@{}
    $types = [ordered]@{}
    foreach ($name in $Properties) {
        $property = $object.PSObject.Properties[$name]
        if ($null -eq $property) { continue }
        $value = $null
        try { $value = $property.Value } catch { $types[$name] = 'error: ' + $_.Exception.Message; continue }
        $values[$name] = ConvertTo-WmcoCaptureValue $value
        if ($null -eq $value) { $types[$name] = $null } else { $types[$name] = $value.GetType().FullName }
    }
    return [ordered]@{ type = $object.PSObject.TypeNames[0]; value = $values; types = $types }
}

# A registry key's values as the module reads them: name, registry kind, value, .NET type of the value.
function ConvertTo-WmcoCaptureKey([string]$Path) {
    $key = Get-Item -LiteralPath $Path -ErrorAction SilentlyContinue
    if ($null -eq $key) { return }
    foreach ($name in @($key.GetValueNames())) {
        $value = $key.GetValue($name, $null, 'DoNotExpandEnvironmentNames')
        $type = $null
        if ($null -ne $value) { $type = $value.GetType().FullName }
        [ordered]@{
                type  = 'Microsoft.Win32.RegistryKey value'
                value = [ordered]@{ Key = $Path; Name = $name; Kind = $key.GetValueKind($name).ToString(); Value = (ConvertTo-WmcoCaptureValue $value) }
                types = [ordered]@{ Key = 'System.String'; Name = 'System.String'; Kind = 'Microsoft.Win32.RegistryValueKind'; Value = $type }
            }
    }
}

function Write-WmcoCapture([string]$Name, [string]$Command, [scriptblock]$Items) {
    $record = [ordered]@{ name = $Name; command = $Command; items = @(); error = $null }
    try { $record.items = @(& $Items) } catch { $record.error = $_.Exception.Message }
    [Console]::Out.WriteLine('wmco-capture ' + $Name + ' ' + (ConvertTo-Json -Depth 8 -Compress -InputObject $record))
    [Console]::Out.Flush()
    $script:captured++
}


$script:captured = 0
$services = @(Get-CimInstance -ClassName Win32_Service)
$managed = @($services | Where-Object { $_.Name -in @('sshd', 'containerd', 'kubelet', 'kube-proxy', 'hybrid-overlay-node', 'windows_exporter', 'csi-proxy', 'LanmanServer') -or ([string]$_.Description) -like '*OpenShift managed*' } | ForEach-Object { $_.Name })
$ruleNames = @('ContainerLogsPort', 'WindowsExporter', 'OpenSSH-Server-In-TCP', 'HybridOverlayVXLAN')

Write-WmcoCapture 'ps-version' '$PSVersionTable' {
    ConvertTo-WmcoCaptureItem ([pscustomobject]@{ PSVersion = $PSVersionTable.PSVersion.ToString(); CLRVersion = [string]$PSVersionTable.CLRVersion; BuildVersion = [string]$PSVersionTable.BuildVersion; PSEdition = [string]$PSVersionTable.PSEdition }) @('PSVersion', 'CLRVersion', 'BuildVersion', 'PSEdition')
}
Write-WmcoCapture 'win32-service' 'Get-CimInstance -ClassName Win32_Service' {
    $services | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('Name', 'DisplayName', 'State', 'Status', 'StartMode', 'Started', 'PathName', 'ProcessId', 'ExitCode', 'ServiceSpecificExitCode', 'Description', 'DelayedAutoStart') }
}
Write-WmcoCapture 'service-controller' 'New-Object System.ServiceProcess.ServiceController <name>' {
    Add-Type -AssemblyName System.ServiceProcess
    foreach ($name in $managed) {
        $controller = New-Object System.ServiceProcess.ServiceController $name
        ConvertTo-WmcoCaptureItem ([pscustomobject]@{
                ServiceName        = $controller.ServiceName
                Status             = $controller.Status
                StartType          = $controller.StartType
                ServicesDependedOn = [string[]]@($controller.ServicesDependedOn | ForEach-Object { $_.ServiceName })
                DependentServices  = [string[]]@($controller.DependentServices | ForEach-Object { $_.ServiceName })
            }) @('ServiceName', 'Status', 'StartType', 'ServicesDependedOn', 'DependentServices')
    }
}
Write-WmcoCapture 'service-registry' 'Get-Item HKLM:\SYSTEM\CurrentControlSet\Services\<name>' {
    foreach ($name in $managed) { ConvertTo-WmcoCaptureKey "HKLM:\SYSTEM\CurrentControlSet\Services\$name" }
}
Write-WmcoCapture 'win32-operatingsystem' 'Get-CimInstance -ClassName Win32_OperatingSystem (twice, one second apart)' {
    foreach ($read in 1..2) {
        if ($read -eq 2) { Start-Sleep -Seconds 1 }
        ConvertTo-WmcoCaptureItem (Get-CimInstance -ClassName Win32_OperatingSystem) @('Caption', 'Version', 'BuildNumber', 'OSArchitecture', 'LastBootUpTime', 'LocalDateTime', 'MUILanguages', 'CSName')
    }
}
Write-WmcoCapture 'windows-nt-currentversion' 'Get-ItemProperty HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion' {
    ConvertTo-WmcoCaptureKey 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion' | Where-Object { $_.value.Name -in @('CurrentBuildNumber', 'UBR', 'ProductName', 'EditionID', 'DisplayVersion', 'ReleaseId', 'InstallationType') }
}
Write-WmcoCapture 'openssh-registry' 'Get-Item HKLM:\SOFTWARE\OpenSSH' { ConvertTo-WmcoCaptureKey 'HKLM:\SOFTWARE\OpenSSH' }
Write-WmcoCapture 'environment-registry' 'Get-Item HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment' {
    ConvertTo-WmcoCaptureKey 'HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
}
Write-WmcoCapture 'net-firewall-rule' 'Get-NetFirewallRule (by Name or DisplayName)' {
    Get-NetFirewallRule -ErrorAction SilentlyContinue | Where-Object { $ruleNames -contains $_.Name -or $ruleNames -contains $_.DisplayName } |
        ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('Name', 'DisplayName', 'Enabled', 'Direction', 'Action', 'Profile', 'PrimaryStatus', 'PolicyStoreSource') }
}
Write-WmcoCapture 'net-firewall-port-filter' 'Get-NetFirewallPortFilter -AssociatedNetFirewallRule <rule>' {
    Get-NetFirewallRule -ErrorAction SilentlyContinue | Where-Object { $ruleNames -contains $_.Name -or $ruleNames -contains $_.DisplayName } | ForEach-Object {
        $filter = Get-NetFirewallPortFilter -AssociatedNetFirewallRule $_
        ConvertTo-WmcoCaptureItem $filter @('InstanceID', 'Protocol', 'LocalPort', 'RemotePort', 'IcmpType', 'DynamicTarget')
    }
}
Write-WmcoCapture 'net-route' 'Get-NetRoute -AddressFamily IPv4' {
    Get-NetRoute -AddressFamily IPv4 | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('DestinationPrefix', 'NextHop', 'RouteMetric', 'InterfaceIndex', 'ifIndex', 'InterfaceAlias', 'Protocol', 'Store', 'AddressFamily') }
}
Write-WmcoCapture 'net-ip-address' 'Get-NetIPAddress -AddressFamily IPv4' {
    Get-NetIPAddress -AddressFamily IPv4 | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('IPAddress', 'InterfaceIndex', 'ifIndex', 'InterfaceAlias', 'PrefixLength', 'PrefixOrigin', 'AddressState', 'Store') }
}
Write-WmcoCapture 'net-adapter' 'Get-NetAdapter -IncludeHidden' {
    Get-NetAdapter -IncludeHidden | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('Name', 'InterfaceDescription', 'ifIndex', 'MacAddress', 'Status', 'Hidden', 'Virtual') }
}
Write-WmcoCapture 'hns-network' 'Get-HnsNetwork' {
    if (-not (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue) -and (Test-Path -LiteralPath 'C:\Temp\hns.psm1')) { Import-Module 'C:\Temp\hns.psm1' -DisableNameChecking }
    if (Get-Command Get-HnsNetwork -ErrorAction SilentlyContinue) {
        Get-HnsNetwork | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('Name', 'Type', 'Id', 'ID', 'Subnets', 'ManagementIP') }
    }
}
Write-WmcoCapture 'root-certificate' 'Get-ChildItem -LiteralPath Cert:\LocalMachine\Root' {
    Get-ChildItem -LiteralPath 'Cert:\LocalMachine\Root' | ForEach-Object { ConvertTo-WmcoCaptureItem $_ @('Thumbprint', 'FriendlyName', 'Subject', 'NotAfter') }
}
Write-WmcoCapture 'windows-optional-feature' 'Get-WindowsOptionalFeature -Online -FeatureName Containers' {
    ConvertTo-WmcoCaptureItem (Get-WindowsOptionalFeature -Online -FeatureName Containers) @('FeatureName', 'State', 'RestartRequired')
}
Write-WmcoCapture 'drive-info' '[System.IO.DriveInfo]::new(''C'')' {
    ConvertTo-WmcoCaptureItem ([System.IO.DriveInfo]::new('C')) @('Name', 'DriveFormat', 'AvailableFreeSpace', 'TotalSize')
}
[Console]::Out.WriteLine('wmco-capture-done ' + $script:captured)
