# Routes, adapters and addresses, the firewall and HNS. Sources (types and shapes):
#   MSFT_NetRoute / Get-NetRoute: https://learn.microsoft.com/en-us/powershell/module/nettcpip/get-netroute?view=windowsserver2022-ps
#   MSFT_NetIPAddress / Get-NetIPAddress: https://learn.microsoft.com/en-us/powershell/module/nettcpip/get-netipaddress?view=windowsserver2022-ps
#   MSFT_NetAdapter / Get-NetAdapter: https://learn.microsoft.com/en-us/powershell/module/netadapter/get-netadapter?view=windowsserver2022-ps
#   MSFT_NetFirewallRule: https://learn.microsoft.com/en-us/windows/win32/fwp/wmi/wfascimprov/msft-netfirewallrule
#   MSFT_NetProtocolPortFilter (LocalPort is string[]): https://learn.microsoft.com/en-us/windows/win32/fwp/wmi/wfascimprov/msft-netprotocolportfilter
#   HNS (hns.psm1 / HostNetworkingService): https://learn.microsoft.com/en-us/virtualization/windowscontainers/container-networking/architecture

function global:ConvertTo-WmcoSimRoute {
    param([object] $Route)
    return [pscustomobject]@{
        PSTypeName        = 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_NetRoute'
        DestinationPrefix = [string]$Route.destinationPrefix
        NextHop           = [string]$Route.nextHop
        ifIndex           = [uint32]$Route.interfaceIndex
        InterfaceIndex    = [uint32]$Route.interfaceIndex
        RouteMetric       = [uint16]$Route.routeMetric
        InterfaceMetric   = [uint32]$Route.interfaceMetric
        AddressFamily     = 'IPv4'
    }
}

function global:Get-NetRoute {
    [CmdletBinding()]
    param(
        [string[]] $DestinationPrefix,
        [string[]] $AddressFamily,
        [Alias('ifIndex')] [uint32[]] $InterfaceIndex,
        # ActiveStore (what the stack uses now) holds every route; PersistentStore only those kept across a
        # restart (New-NetRoute without -PolicyStore writes both; a route added as ActiveStore only is not).
        [ValidateSet('ActiveStore', 'PersistentStore')] [string] $PolicyStore
    )
    $all = @(Invoke-WmcoSimCall 'route.list' | ForEach-Object { $_ })
    if ($PolicyStore -eq 'PersistentStore') { $all = @($all | Where-Object { $_.persistent }) }
    $routes = @($all | ForEach-Object { ConvertTo-WmcoSimRoute $_ })
    if ($null -ne $DestinationPrefix) { $routes = @($routes | Where-Object { $DestinationPrefix -contains $_.DestinationPrefix }) }
    if ($null -ne $InterfaceIndex) { $routes = @($routes | Where-Object { $InterfaceIndex -contains $_.ifIndex }) }
    if ($routes.Count -eq 0 -and $null -ne $DestinationPrefix) {
        Write-WmcoSimError $PSCmdlet "No MSFT_NetRoute objects found with property 'DestinationPrefix' equal to '$($DestinationPrefix -join ', ')'.  Verify the value of the property and retry."
        return
    }
    return $routes
}

function global:New-NetRoute {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)] [string] $DestinationPrefix,
        [Parameter(Mandatory = $true)] [Alias('ifIndex')] [uint32] $InterfaceIndex,
        [string] $NextHop = '0.0.0.0'
    )
    try { $null = Invoke-WmcoSimCall 'route.add' @{ destinationPrefix = $DestinationPrefix; interfaceIndex = $InterfaceIndex; nextHop = $NextHop } }
    catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message 'ResourceExists'; return }
    return ConvertTo-WmcoSimRoute @{ destinationPrefix = $DestinationPrefix; nextHop = $NextHop; interfaceIndex = $InterfaceIndex }
}

function global:Get-WmcoSimAdapters {
    return @(Invoke-WmcoSimCall 'adapter.list' | ForEach-Object { $_ })
}

function global:Get-NetAdapter {
    [CmdletBinding()]
    param([Parameter(Position = 0)] [string[]] $Name)
    foreach ($a in (Get-WmcoSimAdapters)) {
        if ($null -ne $Name -and $Name -notcontains $a.name) { continue }
        [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_NetAdapter'
            Name = [string]$a.name; InterfaceAlias = [string]$a.name; ifIndex = [uint32]$a.ifIndex; InterfaceIndex = [uint32]$a.ifIndex
            MacAddress = [string]$a.macAddress; Status = 'Up' }
    }
}

# Get-NetIPConfiguration (NetIPConfiguration objects, NetTCPIP module): one per interface, with its adapter
# (MSFT_NetAdapter, LinkLayerAddress as 00-15-5D-..) and its IPv4 addresses (MSFT_NetIPAddress[]). -All also
# lists interfaces that are down or hidden (an HNS host vNIC); -AllCompartments those of every compartment.
#   https://learn.microsoft.com/en-us/powershell/module/nettcpip/get-netipconfiguration?view=windowsserver2022-ps
function global:Get-NetIPConfiguration {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)] [string] $InterfaceAlias,
        [uint32] $InterfaceIndex,
        [switch] $AllCompartments,
        [switch] $All,
        [switch] $Detailed
    )
    foreach ($a in (Get-WmcoSimAdapters)) {
        if ($PSBoundParameters.ContainsKey('InterfaceAlias') -and $InterfaceAlias -ne [string]$a.name) { continue }
        if ($PSBoundParameters.ContainsKey('InterfaceIndex') -and $InterfaceIndex -ne [uint32]$a.ifIndex) { continue }
        $adapter = [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_NetAdapter'
            Name = [string]$a.name; InterfaceAlias = [string]$a.name; ifIndex = [uint32]$a.ifIndex
            MacAddress = [string]$a.macAddress; LinkLayerAddress = [string]$a.macAddress; Status = 'Up' }
        $address = [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_NetIPAddress'
            IPAddress = [string]$a.ipv4; InterfaceIndex = [uint32]$a.ifIndex; InterfaceAlias = [string]$a.name
            AddressFamily = 'IPv4'; PrefixLength = [byte]$a.prefixLength; SkipAsSource = $false }
        [pscustomobject]@{ PSTypeName = 'NetIPConfiguration'
            InterfaceAlias = [string]$a.name; InterfaceIndex = [uint32]$a.ifIndex; NetAdapter = $adapter
            IPv4Address = [object[]]@($address); CompartmentId = [uint32]1 }
    }
}

function global:Get-NetIPAddress {
    [CmdletBinding()]
    param(
        [string[]] $AddressFamily,
        [Parameter(ValueFromPipelineByPropertyName = $true)] [Alias('ifIndex')] [uint32[]] $InterfaceIndex,
        [Parameter(ValueFromPipelineByPropertyName = $true)] [string[]] $InterfaceAlias
    )
    process {
        foreach ($a in (Get-WmcoSimAdapters)) {
            if ($null -ne $InterfaceIndex -and $InterfaceIndex -notcontains [uint32]$a.ifIndex) { continue }
            if ($null -ne $InterfaceAlias -and $InterfaceAlias -notcontains [string]$a.name) { continue }
            [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_NetIPAddress'
                IPAddress = [string]$a.ipv4; InterfaceIndex = [uint32]$a.ifIndex; ifIndex = [uint32]$a.ifIndex; InterfaceAlias = [string]$a.name
                AddressFamily = 'IPv4'; PrefixLength = [byte]$a.prefixLength; SkipAsSource = $false }
        }
    }
}

function global:ConvertTo-WmcoSimFirewallRule {
    param([object] $Rule)
    return [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetFirewallRule'
        Name = [string]$Rule.name; InstanceID = [string]$Rule.name; DisplayName = [string]$Rule.name; Direction = [string]$Rule.direction
        Description = [string]$Rule.description
        Action = 'Allow'; Enabled = 'True'; PolicyStoreSourceType = 'Local'; WmcoRule = $Rule }
}

function global:Get-NetFirewallRule {
    [CmdletBinding()]
    param(
        [string[]] $Name,
        [string] $PolicyStore,
        [string] $Direction,
        [string] $Enabled,
        [string] $Action
    )
    $rules = @(Invoke-WmcoSimCall 'firewall.list' | ForEach-Object { $_ } | ForEach-Object { ConvertTo-WmcoSimFirewallRule $_ })
    if ($null -ne $Name) { $rules = @($rules | Where-Object { $r = $_; @($Name | Where-Object { $r.Name -like $_ }).Count -gt 0 }) }
    if ($Direction) { $rules = @($rules | Where-Object { $_.Direction -eq $Direction }) }
    if ($rules.Count -eq 0 -and $null -ne $Name) {
        Write-WmcoSimError $PSCmdlet "No MSFT_NetFirewallRule objects found with property 'Name' equal to '$($Name -join ', ')'.  Verify the value of the property and retry."
        return
    }
    return $rules
}

# LocalPort is string[] in the MOF (a rule may list ports, ranges, or 'Any'), Protocol a string.
function global:ConvertTo-WmcoSimPortFilter {
    param([object] $Rule)
    return [pscustomobject]@{ PSTypeName = 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetProtocolPortFilter'
        InstanceID = [string]$Rule.name; Protocol = [string]$Rule.protocol; LocalPort = [string[]]@([string]$Rule.localPort)
        RemotePort = [string[]]@('Any') }
}

function global:Get-NetFirewallPortFilter {
    [CmdletBinding()]
    param(
        [Parameter(ValueFromPipeline = $true)] [object] $AssociatedNetFirewallRule,
        [string] $PolicyStore
    )
    process {
        if ($null -ne $AssociatedNetFirewallRule) {
            foreach ($r in @($AssociatedNetFirewallRule)) { ConvertTo-WmcoSimPortFilter $r.WmcoRule }
            return
        }
        foreach ($r in (Invoke-WmcoSimCall 'firewall.list')) { ConvertTo-WmcoSimPortFilter $r }
    }
}

function global:New-NetFirewallRule {
    [CmdletBinding()]
    param(
        [string] $Name,
        [Parameter(Mandatory = $true)] [string] $DisplayName,
        [string] $Description = '',
        [string] $Direction = 'Inbound',
        [string] $Protocol,
        [string[]] $LocalPort,
        [string] $Action = 'Allow'
    )
    if (@($LocalPort).Count -ne 1 -or $Action -ne 'Allow') { throw 'the simulated firewall models one local port, Allow rules' }
    $ruleName = $Name
    if (-not $ruleName) { $ruleName = [guid]::NewGuid().ToString('B') }
    $rule = @{ name = $ruleName; protocol = $Protocol; localPort = [string]$LocalPort[0]; direction = $Direction; description = $Description }
    try { $null = Invoke-WmcoSimCall 'firewall.add' $rule }
    catch { Write-WmcoSimError $PSCmdlet $_.Exception.Message 'ResourceExists'; return }
    return ConvertTo-WmcoSimFirewallRule $rule
}

function global:Remove-NetFirewallRule {
    [CmdletBinding()]
    param([string[]] $Name)
    $matched = @(Invoke-WmcoSimCall 'firewall.list' | ForEach-Object { $_ } | Where-Object { $r = $_; @($Name | Where-Object { $r.name -like $_ }).Count -gt 0 })
    if ($matched.Count -eq 0) {
        Write-WmcoSimError $PSCmdlet "No MSFT_NetFirewallRule objects found with property 'Name' equal to '$($Name -join ', ')'.  Verify the value of the property and retry."
        return
    }
    foreach ($r in $matched) { $null = Invoke-WmcoSimCall 'firewall.remove' @{ name = [string]$r.name } }
}

# HNS as hns.psm1 / HostNetworkingService present them: ID, Name, Type, Subnets[].AddressPrefix, ManagementIP.
function global:Get-HnsNetwork {
    foreach ($n in (Invoke-WmcoSimCall 'hns.networks')) {
        [pscustomobject]@{ ID = [string]$n.id; Name = [string]$n.name; Type = [string]$n.type
            Subnets = @([pscustomobject]@{ AddressPrefix = [string]$n.subnet }); ManagementIP = [string]$n.managementIp }
    }
}

function global:Remove-HnsNetwork {
    param([Parameter(ValueFromPipeline = $true)] [object] $InputObject)
    process { if ($null -ne $InputObject) { $null = Invoke-WmcoSimCall 'hns.removeNetwork' @{ id = [string]$InputObject.ID } } }
}

function global:ConvertTo-WmcoSimEndpoint {
    param([object] $Endpoint)
    return [pscustomobject]@{ ID = [string]$Endpoint.id; Name = [string]$Endpoint.name; VirtualNetwork = [string]$Endpoint.networkId
        IPAddress = [string]$Endpoint.ipAddress; MacAddress = [string]$Endpoint.macAddress }
}

function global:Get-HnsEndpoint {
    foreach ($e in (Invoke-WmcoSimCall 'hns.endpoints')) { ConvertTo-WmcoSimEndpoint $e }
}

function global:New-HnsEndpoint {
    param([Parameter(Mandatory = $true)] [string] $NetworkId, [string] $Name)
    return ConvertTo-WmcoSimEndpoint (Invoke-WmcoSimCall 'hns.newEndpoint' @{ networkId = $NetworkId; name = $Name })
}

function global:Attach-HnsHostEndpoint {
    param([Parameter(Mandatory = $true)] [string] $EndpointID, [int] $CompartmentID = 1)
    $null = Invoke-WmcoSimCall 'hns.attach' @{ id = $EndpointID }
}
