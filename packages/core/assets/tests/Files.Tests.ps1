# Folders, ACLs, staged files, archives, pruning and tree removal. Files are real (Pester's TestDrive); ACLs
# and icacls.exe are fakes (Windows only).
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    function New-TestFile {
        param([string] $Path, [string] $Text = 'content')
        $null = New-Item -ItemType Directory -Force -Path (Split-Path -Parent $Path)
        [System.IO.File]::WriteAllText($Path, $Text)
        return (Get-FileHash -LiteralPath $Path -Algorithm SHA256).Hash.ToLowerInvariant()
    }

    function Get-TextHash {
        param([string] $Text)
        $bytes = [System.Text.Encoding]::UTF8.GetBytes($Text)
        return ([System.BitConverter]::ToString([System.Security.Cryptography.SHA256]::HashData($bytes)) -replace '-', '').ToLowerInvariant()
    }
}

Describe 'WmcoHost files' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach {
        Reset-FakeWindows
        $root = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
        $null = New-Item -ItemType Directory -Path $root
        $staging = Join-Path $root 'staging'
        $null = New-Item -ItemType Directory -Path $staging
        InModuleScope WmcoHost -Parameters @{ s = $staging } { param($s) $script:StagingDir = $s }
    }

    Describe 'Test-WmcoProtected' {
        It 'is <expected> for <case>' -TestCases @(
            @{ case = 'protected, owner Administrators, SYSTEM and Administrators allowed'; protected = $true; owner = 'S-1-5-32-544'; sids = @('S-1-5-18', 'S-1-5-32-544'); type = 'Allow'; expected = $true }
            @{ case = 'inheriting from the parent'; protected = $false; owner = 'S-1-5-32-544'; sids = @('S-1-5-18', 'S-1-5-32-544'); type = 'Allow'; expected = $false }
            @{ case = 'another owner'; protected = $true; owner = 'S-1-5-21-1-2-3-500'; sids = @('S-1-5-18'); type = 'Allow'; expected = $false }
            @{ case = 'Users allowed too'; protected = $true; owner = 'S-1-5-32-544'; sids = @('S-1-5-18', 'S-1-5-32-545'); type = 'Allow'; expected = $false }
            @{ case = 'a Deny entry'; protected = $true; owner = 'S-1-5-32-544'; sids = @('S-1-5-18'); type = 'Deny'; expected = $false }
            @{ case = 'no entries at all'; protected = $true; owner = 'S-1-5-32-544'; sids = @(); type = 'Allow'; expected = $false }
        ) {
            $acl = [FakeAcl]::new()
            $acl.AreAccessRulesProtected = $protected
            $acl.Owner = $owner
            $acl.Rules = @($sids | ForEach-Object { New-FakeAccessRule $_ $type })
            $WmcoFake.Acls['C:\k'] = $acl
            InModuleScope WmcoHost { Test-WmcoProtected 'C:\k' } | Should -Be $expected
        }
    }

    Describe 'Initialize-WmcoDirectories' {
        It 'reports <count> protected roots as done, then none' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $roots = @(1..$count | Where-Object { $_ -gt 0 } | ForEach-Object { Join-Path $root "r$_" })
            if ($count -eq 0) { $roots = @() }
            $done = InModuleScope WmcoHost -Parameters @{ r = $roots } { param($r) $script:ProtectedRoots = $r; , @(Initialize-WmcoDirectories) }
            @($done).Count | Should -Be $count
            @($done | ForEach-Object { $_.kind } | Select-Object -Unique) | Should -Be @(@('protectDirectory') | Select-Object -First ([Math]::Min($count, 1)))
            $again = InModuleScope WmcoHost { , @(Initialize-WmcoDirectories) }
            @($again).Count | Should -Be 0
        }
    }

    Describe 'Get-WmcoFileHash' {
        It 'is the lower-case SHA-256 of a file, $null for a missing one or a folder' {
            $file = Join-Path $root 'a.txt'
            $null = New-TestFile $file 'abc'
            InModuleScope WmcoHost -Parameters @{ f = $file } { param($f) Get-WmcoFileHash $f } |
                Should -BeExactly 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
            InModuleScope WmcoHost -Parameters @{ f = (Join-Path $root 'none') } { param($f) $null -eq (Get-WmcoFileHash $f) } | Should -BeTrue
            InModuleScope WmcoHost -Parameters @{ f = $root } { param($f) $null -eq (Get-WmcoFileHash $f) } | Should -BeTrue
        }
    }

    Describe 'Expand-WmcoStagedArchive' {
        BeforeEach {
            # bsdtar as System32\tar.exe: a script that runs this machine's tar with the same arguments.
            $system = Join-Path $root 'Windows'
            $null = New-Item -ItemType Directory -Force -Path (Join-Path $system 'System32')
            $tarExe = Join-Path $system 'System32' 'tar.exe'
            [System.IO.File]::WriteAllText($tarExe, "#!/bin/sh`nexec tar `"`$@`"`n")
            chmod +x $tarExe
            $savedRoot = $env:SystemRoot
            $env:SystemRoot = $system
        }
        AfterEach { $env:SystemRoot = $savedRoot }

        It 'extracts the entry named like the destination into the staged file and removes the archive' {
            $source = Join-Path $root 'src'
            $sha = New-TestFile (Join-Path $source 'kubelet.exe') 'binary'
            tar -c -z -f (Join-Path $staging "$sha.tar.gz") -C $source kubelet.exe
            # '/' for the folder: off Windows .NET's Path.GetFileName splits only there (Windows takes both).
            InModuleScope WmcoHost -Parameters @{ s = $sha } { param($s) Expand-WmcoStagedArchive '/k/kubelet.exe' $s }
            Get-Content -Raw (Join-Path $staging $sha) | Should -Be 'binary'
            Test-Path (Join-Path $staging "$sha.tar.gz") | Should -BeFalse
            Test-Path (Join-Path $staging "$sha.extract") | Should -BeFalse
        }
        It 'fails for an archive without that entry and leaves nothing behind' {
            $source = Join-Path $root 'src'
            $sha = New-TestFile (Join-Path $source 'other.exe') 'binary'
            tar -c -z -f (Join-Path $staging "$sha.tar.gz") -C $source other.exe
            { InModuleScope WmcoHost -Parameters @{ s = $sha } { param($s) Expand-WmcoStagedArchive '/k/kubelet.exe' $s } } |
                Should -Throw "*does not hold a file named 'kubelet.exe'*"
            @(Get-ChildItem -LiteralPath $staging) | Should -HaveCount 0
        }
        It 'fails with tar''s exit code for a broken archive' {
            [System.IO.File]::WriteAllText((Join-Path $staging ('a' * 64 + '.tar.gz')), 'not gzip')
            { InModuleScope WmcoHost { Expand-WmcoStagedArchive 'C:\k\kubelet.exe' ('a' * 64) } } | Should -Throw '*tar.exe could not extract*'
            @(Get-ChildItem -LiteralPath $staging) | Should -HaveCount 0
        }
        It 'does nothing when the file is staged already or no archive is there' {
            $sha = New-TestFile (Join-Path $staging ('b' * 64)) 'staged'
            InModuleScope WmcoHost { Expand-WmcoStagedArchive 'C:\k\x.exe' ('b' * 64); Expand-WmcoStagedArchive 'C:\k\x.exe' ('c' * 64) }
            @(Get-ChildItem -LiteralPath $staging).Name | Should -Be @('b' * 64)
            $sha | Should -Not -BeNullOrEmpty
        }
        It 'says so when tar.exe is missing' {
            Remove-Item -LiteralPath (Join-Path $env:SystemRoot 'System32' 'tar.exe')
            [System.IO.File]::WriteAllText((Join-Path $staging ('d' * 64 + '.tar.gz')), 'x')
            { InModuleScope WmcoHost { Expand-WmcoStagedArchive 'C:\k\x.exe' ('d' * 64) } } | Should -Throw '*tar.exe is missing*'
        }
    }

    Describe 'Copy-WmcoVerifiedFile' {
        It 'copies and checks the copy' {
            $sha = New-TestFile (Join-Path $root 'src.bin') 'payload'
            InModuleScope WmcoHost -Parameters @{ r = $root; s = $sha } { param($r, $s) Copy-WmcoVerifiedFile (Join-Path $r 'src.bin') (Join-Path $r 'dst.bin') $s }
            Get-Content -Raw (Join-Path $root 'dst.bin') | Should -Be 'payload'
        }
        It 'deletes a copy with the wrong hash, and the source with it' {
            $null = New-TestFile (Join-Path $root 'src.bin') 'payload'
            { InModuleScope WmcoHost -Parameters @{ r = $root } { param($r) Copy-WmcoVerifiedFile (Join-Path $r 'src.bin') (Join-Path $r 'dst.bin') ('0' * 64) } } |
                Should -Throw "has SHA-256 '*', expected '$('0' * 64)'"
            Test-Path (Join-Path $root 'dst.bin') | Should -BeFalse
            Test-Path (Join-Path $root 'src.bin') | Should -BeFalse
        }
        It 'fails for a missing source' {
            { InModuleScope WmcoHost -Parameters @{ r = $root } { param($r) Copy-WmcoVerifiedFile (Join-Path $r 'none') (Join-Path $r 'dst') ('0' * 64) } } |
                Should -Throw 'is missing from the staging folder'
        }
    }

    Describe 'Install-WmcoStagedFile' {
        It 'places the staged file, creating its folder, with nothing left beside it' {
            $sha = Get-TextHash 'new binary'
            $null = New-TestFile (Join-Path $staging $sha) 'new binary'
            $destination = Join-Path $root 'k' 'kubelet.exe'
            InModuleScope WmcoHost -Parameters @{ d = $destination; s = $sha } { param($d, $s) Install-WmcoStagedFile $d $s }
            Get-Content -Raw $destination | Should -Be 'new binary'
            @(Get-ChildItem -LiteralPath (Join-Path $root 'k')).Name | Should -Be @('kubelet.exe')
        }
        It 'names the destination when the staged file is missing and keeps the old file' {
            $destination = Join-Path $root 'kubelet.exe'
            $null = New-TestFile $destination 'old'
            { InModuleScope WmcoHost -Parameters @{ d = $destination } { param($d) Install-WmcoStagedFile $d ('e' * 64) } } |
                Should -Throw "staged file for '$destination' is missing from the staging folder"
            Get-Content -Raw $destination | Should -Be 'old'
        }
    }

    Describe 'Get-WmcoChildFolders' {
        It 'lists <count> sub-folders of a prunable root as a list' -TestCases @(@{ count = 0 }, @{ count = 1 }, @{ count = 3 }) {
            $prunable = Join-Path $root 'registries'
            $null = New-Item -ItemType Directory -Path $prunable
            for ($i = 1; $i -le $count; $i++) { $null = New-Item -ItemType Directory -Path (Join-Path $prunable "mirror$i") }
            $null = New-TestFile (Join-Path $prunable 'a-file') 'x'
            $type = InModuleScope WmcoHost -Parameters @{ p = $prunable } {
                param($p)
                $script:PrunableRoots = @($p)
                $children = Get-WmcoChildFolders @($p)
                "$($children[$p].GetType().Name) $($children[$p].Count)"
            }
            $type | Should -Be "String[] $count"
        }
        It 'refuses a folder that is not a prunable root, and skips a missing root' {
            { InModuleScope WmcoHost { Get-WmcoChildFolders @('C:\Windows') } } | Should -Throw "*'C:\Windows' is not a prunable root*"
            InModuleScope WmcoHost -Parameters @{ p = (Join-Path $root 'none') } { param($p) $script:PrunableRoots = @($p); (Get-WmcoChildFolders @($p)).Count } | Should -Be 0
        }
    }

    Describe 'Remove-WmcoPrunedFolder' {
        It 'removes a folder directly under a prunable root; a missing one is fine' {
            $prunable = Join-Path $root 'registries'
            $null = New-TestFile (Join-Path $prunable 'old.mirror' 'hosts.toml') 'x'
            InModuleScope WmcoHost -Parameters @{ p = $prunable } {
                param($p)
                $script:PrunableRoots = @($p)
                Remove-WmcoPrunedFolder (Join-Path $p 'old.mirror')
                Remove-WmcoPrunedFolder (Join-Path $p 'gone')
            }
            Test-Path (Join-Path $prunable 'old.mirror') | Should -BeFalse
        }
        It 'refuses <path>' -TestCases @(@{ path = 'C:\Windows\System32' }, @{ path = 'C:\k\containerd\registries\..' }, @{ path = 'C:\k\containerd\registries\a b' }) {
            { InModuleScope WmcoHost -Parameters @{ p = $path } { param($p) Remove-WmcoPrunedFolder $p } } |
                Should -Throw '*is not a folder directly under a prunable root*'
        }
    }

    Describe 'Test-WmcoLink' {
        It 'tells a symbolic link from a folder and a file' {
            $dir = Join-Path $root 'dir'
            $null = New-Item -ItemType Directory -Path $dir
            $null = New-TestFile (Join-Path $root 'file') 'x'
            $link = New-Item -ItemType SymbolicLink -Path (Join-Path $root 'link') -Target $dir
            InModuleScope WmcoHost -Parameters @{ r = $root } {
                param($r)
                @((Test-WmcoLink (Get-Item (Join-Path $r 'dir'))), (Test-WmcoLink (Get-Item (Join-Path $r 'file'))), (Test-WmcoLink (Get-Item -Force (Join-Path $r 'link'))))
            } | Should -Be @($false, $false, $true)
            $link | Should -Not -BeNullOrEmpty
        }
    }

    Describe 'Remove-WmcoTree' {
        It 'removes a tree, deepest first' {
            $null = New-TestFile (Join-Path $root 'k' 'a' 'b' 'c.txt') 'x'
            InModuleScope WmcoHost -Parameters @{ d = (Join-Path $root 'k') } { param($d) Remove-WmcoTree (Get-Item $d) @() }
            Test-Path (Join-Path $root 'k') | Should -BeFalse
        }
        It 'keeps a kept file and the folders that hold it, matching the keep path without regard to case' {
            $k = Join-Path $root 'k'
            $null = New-TestFile (Join-Path $k 'kubeconfig') 'keep'
            $null = New-TestFile (Join-Path $k 'other.exe') 'go'
            # Windows paths are case-insensitive: the operator may name C:\K\kubeconfig for C:\k\kubeconfig.
            $keep = Join-Path $root 'K' 'kubeconfig'
            InModuleScope WmcoHost -Parameters @{ d = $k; keep = @($keep) } { param($d, $keep) Remove-WmcoTree (Get-Item $d) $keep }
            Get-Content -Raw (Join-Path $k 'kubeconfig') | Should -Be 'keep'
            Test-Path (Join-Path $k 'other.exe') | Should -BeFalse
        }
        It 'removes a link inside the tree as a link, never what it points to' {
            $outside = Join-Path $root 'outside'
            $null = New-TestFile (Join-Path $outside 'precious.txt') 'x'
            $k = Join-Path $root 'k'
            $null = New-Item -ItemType Directory -Path $k
            $null = New-Item -ItemType SymbolicLink -Path (Join-Path $k 'link') -Target $outside
            InModuleScope WmcoHost -Parameters @{ d = $k } { param($d) Remove-WmcoTree (Get-Item $d) @() }
            Test-Path $k | Should -BeFalse
            Test-Path (Join-Path $outside 'precious.txt') | Should -BeTrue
        }
    }
}
