# hybrid-overlay's old client certificates (issue 29): observe lists the ovnkube-client-*.pem files of its
# certificate folder, and a removeClientCertificate step deletes one, never following a link, as upstream
# WICD prunes them (reference §1.5). Which ones go is the plan's choice (client-certificate-steps.ts).
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    function Get-ObservedCertificates {
        param([hashtable] $With = @{ clientCertificates = $true })
        $answer = Invoke-WmcoJson (New-ObserveRequest $With)
        $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
        return $answer
    }
}

Describe 'WmcoHost client certificates' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach {
        Reset-FakeWindows
        $certs = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
        InModuleScope WmcoHost -Parameters @{ c = $certs } { param($c) $script:ClientCertDir = $c }
    }

    Describe 'Get-WmcoClientCertificates' {
        It 'lists the ovnkube-client-*.pem files and links, and nothing else of the folder' {
            $null = New-Item -ItemType Directory -Path $certs
            foreach ($name in @('ovnkube-client-2026-11-25-10-00-00.pem', 'ovnkube-client-2026-11-26-10-00-00.pem', 'cni.conf',
                    'ovnkube-client-notes.txt', 'OVNKUBE-CLIENT-X.pem')) {
                [System.IO.File]::WriteAllText((Join-Path $certs $name), 'x')
            }
            $null = New-Item -ItemType Directory -Path (Join-Path $certs 'ovnkube-client-folder.pem')
            $null = New-Item -ItemType SymbolicLink -Path (Join-Path $certs 'ovnkube-client-current.pem') `
                -Target (Join-Path $certs 'ovnkube-client-2026-11-26-10-00-00.pem')
            $answer = Get-ObservedCertificates
            $names = @((Get-JsonAt $answer.Json 'state.clientCertificates').EnumerateArray() | ForEach-Object { $_.GetString() })
            $names | Sort-Object | Should -Be @('ovnkube-client-2026-11-25-10-00-00.pem', 'ovnkube-client-2026-11-26-10-00-00.pem',
                'ovnkube-client-current.pem')
        }
        It 'reports none when the folder is missing, and leaves the field out when not asked' {
            $answer = Get-ObservedCertificates
            @((Get-JsonAt $answer.Json 'state.clientCertificates').EnumerateArray()) | Should -HaveCount 0
            $plain = Get-ObservedCertificates @{}
            $plain.Text | Should -Not -Match 'clientCertificates'
        }
    }

    Describe 'Remove-WmcoClientCertificate' {
        BeforeEach { $null = New-Item -ItemType Directory -Path $certs }
        It 'removes the named certificates through apply and keeps the others' {
            InModuleScope WmcoHost { $script:ProtectedRoots = @() }
            foreach ($day in 24..27) { [System.IO.File]::WriteAllText((Join-Path $certs "ovnkube-client-2026-11-$day-10-00-00.pem"), 'x') }
            $answer = Invoke-WmcoJson @{ v = 1; op = 'apply'; steps = @(
                    @{ kind = 'removeClientCertificate'; name = 'ovnkube-client-2026-11-24-10-00-00.pem' },
                    @{ kind = 'removeClientCertificate'; name = 'ovnkube-client-2026-11-25-10-00-00.pem' }) }
            $answer.Json.GetProperty('ok').GetBoolean() | Should -BeTrue -Because $answer.Text
            @(Get-ChildItem -LiteralPath $certs -Name | Sort-Object) | Should -Be @('ovnkube-client-2026-11-26-10-00-00.pem',
                'ovnkube-client-2026-11-27-10-00-00.pem')
        }
        It 'removes a link as a link and leaves its target' {
            $target = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
            [System.IO.File]::WriteAllText($target, 'keep')
            $null = New-Item -ItemType SymbolicLink -Path (Join-Path $certs 'ovnkube-client-old.pem') -Target $target
            InModuleScope WmcoHost { Remove-WmcoClientCertificate 'ovnkube-client-old.pem' }
            Test-Path (Join-Path $certs 'ovnkube-client-old.pem') | Should -BeFalse
            [System.IO.File]::ReadAllText($target) | Should -Be 'keep'
        }
        It 'removes a read-only certificate, and is fine when it is already gone' {
            $path = Join-Path $certs 'ovnkube-client-ro.pem'
            [System.IO.File]::WriteAllText($path, 'x')
            [System.IO.File]::SetAttributes($path, [System.IO.FileAttributes]::ReadOnly)
            InModuleScope WmcoHost { Remove-WmcoClientCertificate 'ovnkube-client-ro.pem' }
            Test-Path $path | Should -BeFalse
            { InModuleScope WmcoHost { Remove-WmcoClientCertificate 'ovnkube-client-ro.pem' } } | Should -Not -Throw
        }
        It 'refuses any other name, before touching the folder' {
            [System.IO.File]::WriteAllText((Join-Path $certs 'cni.conf'), 'x')
            foreach ($name in @('cni.conf', '..\cni.conf', 'ovnkube-client-x.pem\..\..\cni.conf', 'ovnkube-client-.pem')) {
                { InModuleScope WmcoHost -Parameters @{ n = $name } { param($n) Remove-WmcoClientCertificate $n } } |
                    Should -Throw "*not a hybrid-overlay client certificate name*"
            }
            Test-Path (Join-Path $certs 'cni.conf') | Should -BeTrue
        }
    }
}
