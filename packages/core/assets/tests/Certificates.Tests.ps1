# The machine Root store (Cert:\LocalMachine\Root), faked: off Windows the LocalMachine stores are read-only.
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    function New-PemCertificate {
        $rsa = [System.Security.Cryptography.RSA]::Create(2048)
        $request = [System.Security.Cryptography.X509Certificates.CertificateRequest]::new('CN=wmco-test', $rsa, 'SHA256',
            [System.Security.Cryptography.RSASignaturePadding]::Pkcs1)
        $cert = $request.CreateSelfSigned([DateTimeOffset]::UtcNow, [DateTimeOffset]::UtcNow.AddDays(1))
        $pem = "-----BEGIN CERTIFICATE-----`n$([Convert]::ToBase64String($cert.RawData, 'InsertLineBreaks'))`n-----END CERTIFICATE-----`n"
        return [pscustomobject]@{ Pem = $pem; Thumbprint = $cert.Thumbprint }
    }
}

Describe 'WmcoHost certificates' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach { Reset-FakeWindows }

    Describe 'Get-WmcoRootCertificates' {
        It 'reports <count> certificates as a list in the observe result' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            for ($i = 1; $i -le $count; $i++) { $WmcoFake.Certs.Add((New-FakeCertificate ("$i" * 40) 'OpenShift managed')) }
            $WmcoFake.Certs.Add((New-FakeCertificate ('F' * 40) 'Windows root'))
            $out = Invoke-WmcoJson (New-ObserveRequest @{ rootCertificates = @() })
            $certs = Get-JsonAt $out.Json 'state.rootCertificates'
            $certs.ValueKind | Should -Be 'Array'
            $certs.GetArrayLength() | Should -Be $count
        }
        It 'reports the requested thumbprints (any case) and every managed certificate, sorted' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('B' * 40) 'OpenShift managed'))
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) ''))
            $WmcoFake.Certs.Add((New-FakeCertificate ('C' * 40) 'someone else''s'))
            $certs = InModuleScope WmcoHost { , @(Get-WmcoRootCertificates @('a' * 40)) }
            @($certs | ForEach-Object { "$($_.thumbprint) $($_.managed)" }) | Should -Be @("$('A' * 40) False", "$('B' * 40) True")
        }
    }

    Describe 'Import-WmcoRootCertificates' {
        It 'imports nothing when a listed thumbprint is not in the bundle' {
            $bundle = Join-Path $TestDrive 'ca.pem'
            $cert = New-PemCertificate
            [System.IO.File]::WriteAllText($bundle, "-----BEGIN CERTIFICATE-----`nnot base64!`n-----END CERTIFICATE-----`n" + $cert.Pem)
            { InModuleScope WmcoHost -Parameters @{ b = $bundle } { param($b) Import-WmcoRootCertificates $b @('0' * 40) } } |
                Should -Throw "certificate(s) $('0' * 40) not found in '$bundle'"
        }
    }

    Describe 'Remove-WmcoRootCertificate' {
        It 'removes a certificate the operator imported' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'OpenShift managed'))
            InModuleScope WmcoHost { Remove-WmcoRootCertificate ('A' * 40) }
            $WmcoFake.Certs | Should -HaveCount 0
        }
        It 'is fine with a certificate that is gone' {
            InModuleScope WmcoHost { Remove-WmcoRootCertificate ('A' * 40) }
        }
        It 'refuses one it did not import' {
            $WmcoFake.Certs.Add((New-FakeCertificate ('A' * 40) 'Windows root'))
            { InModuleScope WmcoHost { Remove-WmcoRootCertificate ('A' * 40) } } | Should -Throw '*was not added by the operator*'
            $WmcoFake.Certs | Should -HaveCount 1
        }
        It 'refuses something that is not a thumbprint' {
            { InModuleScope WmcoHost { Remove-WmcoRootCertificate '..\My\x' } } | Should -Throw '*is not a certificate thumbprint*'
        }
    }
}
