# The shims' one way to the simulator: a POST to this host's loopback endpoint, {method, params} in,
# {result} or {error} out (packages/sim src/windows/pwsh/shim-rpc.ts).
$global:WmcoSimHttp = [System.Net.Http.HttpClient]::new()

function global:Invoke-WmcoSimCall {
    param(
        [string] $Method,
        [hashtable] $Params = @{}
    )
    $json = ConvertTo-Json -InputObject @{ method = $Method; params = $Params } -Depth 10 -Compress
    $request = [System.Net.Http.HttpRequestMessage]::new([System.Net.Http.HttpMethod]::Post, $global:WmcoSimRpc)
    $null = $request.Headers.TryAddWithoutValidation('X-Wmco-Token', $global:WmcoSimToken)
    $request.Content = [System.Net.Http.StringContent]::new($json, [System.Text.Encoding]::UTF8, 'application/json')
    $response = $global:WmcoSimHttp.Send($request)
    $text = $response.Content.ReadAsStringAsync().GetAwaiter().GetResult()
    $answer = ConvertFrom-Json -InputObject $text -DateKind String
    if ($null -ne $answer.PSObject.Properties['error']) { throw [System.InvalidOperationException]::new([string]$answer.error) }
    # An array comes back as one object (the caller enumerates it); Write-Output -NoEnumerate would wrap
    # a single object in a list.
    $result = $answer.result
    if ($result -is [array]) { return , $result }
    return $result
}

# A cmdlet's error: nothing under -ErrorAction SilentlyContinue/Ignore, else a terminating error (the
# module runs under 'Stop', where a cmdlet's error is terminating too).
function global:Write-WmcoSimError {
    param(
        [System.Management.Automation.PSCmdlet] $Cmdlet,
        [string] $Message,
        [string] $Category = 'ObjectNotFound'
    )
    $action = $Cmdlet.MyInvocation.BoundParameters['ErrorAction']
    if ($null -ne $action -and @('SilentlyContinue', 'Ignore') -contains [string]$action) { return }
    $record = [System.Management.Automation.ErrorRecord]::new([System.Exception]::new($Message),
        'WmcoSim', [System.Management.Automation.ErrorCategory]$Category, $null)
    $Cmdlet.ThrowTerminatingError($record)
}

# True for a path on a Windows-only provider drive the shims stand for (HKLM:, Cert:).
function global:Test-WmcoSimDrive {
    param([string] $Path, [string] $Drive)
    return $null -ne $Path -and $Path.StartsWith("${Drive}:\", [System.StringComparison]::OrdinalIgnoreCase)
}
