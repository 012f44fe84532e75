# The operator's folders (C:\ProgramData\wmco, C:\k, C:\Temp) before the module uses them: an existing one that
# is a reparse point, that someone other than SYSTEM, Administrators, TrustedInstaller or CREATOR OWNER may
# write, or that another principal owns, is refused with the fix; a missing one is created with the operator's
# ACL in the same call. Folders and symbolic links are real (TestDrive); junctions, ACLs and DirectoryInfo's
# Create(DirectorySecurity) are fakes (Windows only, SOURCES.md S5 and S12).
BeforeAll {
    . (Join-Path $PSScriptRoot 'WindowsFakes.ps1')
    Set-StrictMode -Version Latest

    # An ACL as Get-Acl returns it for a folder.
    function New-TestAcl {
        param([string] $Owner = 'S-1-5-32-544', [object[]] $Rules = @(), [bool] $Protected = $true)
        $acl = [FakeAcl]::new()
        $acl.Owner = $Owner
        $acl.AreAccessRulesProtected = $Protected
        $acl.Rules = $Rules
        return $acl
    }

    # SYSTEM and Administrators with full control: the operator's own entries.
    function Get-OperatorRules {
        return @((New-FakeAccessRule 'S-1-5-18'), (New-FakeAccessRule 'S-1-5-32-544'))
    }

    function Get-Problem {
        param([string] $Path)
        return InModuleScope WmcoHost -Parameters @{ p = $Path } { param($p) Get-WmcoFolderProblem $p }
    }
}

Describe 'WmcoHost folders' {
    BeforeAll {
        Import-WmcoHostModule
        Use-FakeWindows
    }
    BeforeEach {
        Reset-FakeWindows
        $root = Join-Path $TestDrive ([guid]::NewGuid().ToString('n'))
        $null = New-Item -ItemType Directory -Path $root
        $dir = Join-Path $root 'k'
    }

    Describe 'Get-WmcoSidLabel' {
        It 'names a well-known SID and keeps any other as it is' {
            InModuleScope WmcoHost { Get-WmcoSidLabel 'S-1-5-32-545' } | Should -BeExactly 'BUILTIN\Users (S-1-5-32-545)'
            InModuleScope WmcoHost { Get-WmcoSidLabel 'S-1-5-21-1-2-3-1001' } | Should -BeExactly 'S-1-5-21-1-2-3-1001'
        }
    }

    Describe 'Get-WmcoWriteRightNames' {
        It 'lists <expected> for rights <rights>' -TestCases @(
            @{ rights = 0x1200A9; expected = @() }
            @{ rights = 0x6; expected = @('CreateFiles', 'CreateDirectories') }
            @{ rights = 0x80000; expected = @('TakeOwnership') }
            @{ rights = 0x10000000; expected = @('FullControl') }
            @{ rights = 0x1F01FF; expected = @('FullControl') }
            @{ rights = 0x40000000; expected = @('GenericWrite') }
            @{ rights = [long][int]-2147483648; expected = @() }
        ) {
            $names = InModuleScope WmcoHost -Parameters @{ r = $rights } { param($r) , @(Get-WmcoWriteRightNames $r) }
            @($names) | Should -Be $expected
        }
    }

    Describe 'Get-WmcoForeignWriters' {
        It 'finds <count> writers among <case>' -TestCases @(
            @{ case = 'the operator''s entries'; rules = @('S-1-5-18', 'S-1-5-32-544'); count = 0 }
            @{ case = 'TrustedInstaller and CREATOR OWNER'; rules = @('S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464', 'S-1-3-0'); count = 0 }
            @{ case = 'Users and Authenticated Users'; rules = @('S-1-5-32-545', 'S-1-5-11'); count = 2 }
            @{ case = 'a local user'; rules = @('S-1-5-21-1-2-3-1001'); count = 1 }
        ) {
            $acl = New-TestAcl -Rules @($rules | ForEach-Object { New-FakeAccessRule $_ -Rights 'Modify' })
            $found = InModuleScope WmcoHost -Parameters @{ a = $acl } { param($a) Get-WmcoForeignWriters $a }
            @($found).Count | Should -Be $count
        }
        It 'adds up the rights of one principal''s entries into one line' {
            $acl = New-TestAcl -Rules @((New-FakeAccessRule 'S-1-5-32-545' -Rights 0x4), (New-FakeAccessRule 'S-1-5-11' -Rights 0x2),
                (New-FakeAccessRule 'S-1-5-32-545' -Rights 0x2))
            $found = InModuleScope WmcoHost -Parameters @{ a = $acl } { param($a) Get-WmcoForeignWriters $a }
            @($found | ForEach-Object { "$($_.sid) $($_.rights)" }) | Should -Be @('S-1-5-32-545 CreateFiles, CreateDirectories', 'S-1-5-11 CreateFiles')
        }
        It 'ignores Deny entries and read-only entries' {
            $acl = New-TestAcl -Rules @((New-FakeAccessRule 'S-1-1-0' 'Deny'), (New-FakeAccessRule 'S-1-5-32-545' -Rights 'ReadAndExecute'))
            $found = InModuleScope WmcoHost -Parameters @{ a = $acl } { param($a) Get-WmcoForeignWriters $a }
            @($found).Count | Should -Be 0
        }
    }

    Describe 'Get-WmcoFolderProblem' {
        It 'accepts a missing folder' {
            Get-Problem $dir | Should -BeNullOrEmpty
        }
        It 'accepts a clean folder: owner Administrators, SYSTEM and Administrators only' {
            $null = New-Item -ItemType Directory -Path $dir
            $WmcoFake.Acls[$dir] = New-TestAcl -Rules (Get-OperatorRules)
            Get-Problem $dir | Should -BeNullOrEmpty
        }
        It 'accepts owner SYSTEM, inherited entries, CREATOR OWNER and TrustedInstaller' {
            $null = New-Item -ItemType Directory -Path $dir
            $rules = @(Get-OperatorRules) + @((New-FakeAccessRule 'S-1-3-0'),
                (New-FakeAccessRule 'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464'),
                (New-FakeAccessRule 'S-1-5-32-545' -Rights 'ReadAndExecute'))
            $WmcoFake.Acls[$dir] = New-TestAcl -Owner 'S-1-5-18' -Rules $rules -Protected $false
            Get-Problem $dir | Should -BeNullOrEmpty
        }
        It 'refuses a junction, naming its target and the fix' {
            $null = New-Item -ItemType Directory -Path $dir
            Mock -ModuleName WmcoHost Get-Item -ParameterFilter { $LiteralPath -eq $dir } { New-FakeFolderItem 'Junction' 'C:\Users\eve\k' }
            $problem = Get-Problem $dir
            $problem.reason | Should -BeExactly 'is a Junction to C:\Users\eve\k (a reparse point)'
            $problem.fix | Should -BeLike "remove the link, not its target (cmd /c rmdir `"$dir`")*"
        }
        It 'refuses a symbolic link (a reparse point)' {
            $target = Join-Path $root 'elsewhere'
            $null = New-Item -ItemType Directory -Path $target
            $null = New-Item -ItemType SymbolicLink -Path $dir -Target $target
            (Get-Problem $dir).reason | Should -BeExactly "is a SymbolicLink to $target (a reparse point)"
        }
        It 'refuses a reparse point of another kind, without a link type' {
            Mock -ModuleName WmcoHost Get-Item -ParameterFilter { $LiteralPath -eq $dir } { New-FakeFolderItem 'x' 'y' | ForEach-Object { $_.LinkType = $null; $_.Target = $null; $_ } }
            (Get-Problem $dir).reason | Should -BeExactly 'is a reparse point'
        }
        It 'refuses a folder <who> can write, naming the principal, the rights and the icacls fix' -TestCases @(
            @{ who = 'BUILTIN\Users'; sid = 'S-1-5-32-545'; rights = 0x6; names = 'CreateFiles, CreateDirectories'; label = 'BUILTIN\Users (S-1-5-32-545)' }
            @{ who = 'a local user'; sid = 'S-1-5-21-1-2-3-1001'; rights = 0x1301BF; names = 'CreateFiles, CreateDirectories, WriteExtendedAttributes, WriteAttributes, Delete'; label = 'S-1-5-21-1-2-3-1001' }
            @{ who = 'Authenticated Users (full control)'; sid = 'S-1-5-11'; rights = 0x1F01FF; names = 'FullControl'; label = 'NT AUTHORITY\Authenticated Users (S-1-5-11)' }
            @{ who = 'Everyone (change permissions only)'; sid = 'S-1-1-0'; rights = 0x40000; names = 'ChangePermissions'; label = 'Everyone (S-1-1-0)' }
        ) {
            $null = New-Item -ItemType Directory -Path $dir
            $WmcoFake.Acls[$dir] = New-TestAcl -Rules (@(Get-OperatorRules) + @(New-FakeAccessRule $sid -Rights $rights))
            $problem = Get-Problem $dir
            $problem.reason | Should -BeExactly "lets non-administrators write: $label $names"
            $problem.fix | Should -BeExactly ("delete it if nothing else uses it (the operator then creates it for SYSTEM and Administrators only), " +
                "or, as an administrator: icacls `"$dir`" /setowner *S-1-5-32-544 /T /C; icacls `"$dir`" /inheritance:r /grant:r " +
                "*S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F; icacls `"$dir`" /remove:g *$sid /T /C")
        }
        It 'refuses a folder whose owner is not Administrators or SYSTEM' {
            $null = New-Item -ItemType Directory -Path $dir
            $WmcoFake.Acls[$dir] = New-TestAcl -Owner 'S-1-5-21-1-2-3-1001' -Rules (Get-OperatorRules)
            $problem = Get-Problem $dir
            $problem.reason | Should -BeExactly 'is owned by S-1-5-21-1-2-3-1001, not Administrators or SYSTEM'
            $problem.fix | Should -BeLike "*/setowner *S-1-5-32-544*"
        }
        It 'refuses a folder without a DACL' {
            $null = New-Item -ItemType Directory -Path $dir
            $acl = New-TestAcl
            $acl.NullDacl = $true
            $WmcoFake.Acls[$dir] = $acl
            (Get-Problem $dir).reason | Should -BeExactly 'has no DACL (everyone has full control)'
        }
        It 'refuses a file where the folder should be' {
            [System.IO.File]::WriteAllText($dir, 'x')
            (Get-Problem $dir).reason | Should -BeExactly 'is a file, not a folder'
        }
    }

    Describe 'Format-WmcoFolderProblem' {
        It 'names the folder, the reason and the fix on one line' {
            $text = InModuleScope WmcoHost { Format-WmcoFolderProblem ([ordered]@{ path = 'C:\k'; reason = 'is a Junction to D:\x (a reparse point)'; fix = 'remove it' }) }
            $text | Should -BeExactly 'folder C:\k is a Junction to D:\x (a reparse point), so the operator will not use it. Fix: remove it'
        }
    }

    Describe 'New-WmcoOperatorAcl' {
        It 'is owned by Administrators, protected, with full control for SYSTEM and Administrators only' {
            $acl = InModuleScope WmcoHost { New-WmcoOperatorAcl }
            $acl.Owner | Should -Be 'S-1-5-32-544'
            $acl.AreAccessRulesProtected | Should -BeTrue
            @($acl.Rules | ForEach-Object { $_.IdentityReference.Value }) | Should -Be @('S-1-5-18', 'S-1-5-32-544')
            @($acl.Rules | ForEach-Object { $_.FileSystemRights }) | Should -Be @(0x1F01FF, 0x1F01FF)
        }
    }

    Describe 'New-WmcoProtectedDirectory' {
        It 'creates the folder with the operator''s ACL in the one call' {
            InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) New-WmcoProtectedDirectory $d }
            Test-Path -LiteralPath $dir -PathType Container | Should -BeTrue
            @($WmcoFake.Calls) | Should -Be @("DirectoryInfo.Create $dir")
            $WmcoFake.Acls[$dir].AreAccessRulesProtected | Should -BeTrue
            $WmcoFake.Acls[$dir].Owner | Should -Be 'S-1-5-32-544'
        }
    }

    Describe 'Protect-WmcoDirectory' {
        It 'creates a missing folder with the protected ACL, without Set-Acl or icacls, once' {
            InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } | Should -BeTrue
            Test-Path -LiteralPath $dir -PathType Container | Should -BeTrue
            InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Test-WmcoProtected $d } | Should -BeTrue
            @($WmcoFake.Calls) | Should -Be @("DirectoryInfo.Create $dir")
            InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } | Should -BeFalse
        }
        It 'takes over a clean folder that is not yet exactly the operator''s: children reset, ACL set' {
            $null = New-Item -ItemType Directory -Path $dir
            $WmcoFake.Acls[$dir] = New-TestAcl -Owner 'S-1-5-18' -Rules (Get-OperatorRules) -Protected $false
            InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } | Should -BeTrue
            @($WmcoFake.Calls) | Should -Be @("icacls.exe $dir /reset /t /c /q", "Set-Acl $dir")
            $WmcoFake.Acls[$dir].Owner | Should -Be 'S-1-5-32-544'
        }
        It 'refuses a user-writable folder and changes nothing' {
            $null = New-Item -ItemType Directory -Path $dir
            $WmcoFake.Acls[$dir] = New-TestAcl -Rules (@(Get-OperatorRules) + @(New-FakeAccessRule 'S-1-5-32-545' -Rights 'Modify')) -Protected $false
            { InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } } |
                Should -Throw "folder $dir lets non-administrators write: BUILTIN\Users (S-1-5-32-545) *Fix: *"
            @($WmcoFake.Calls) | Should -Be @()
        }
        It 'refuses a junction and writes nothing through it' {
            $null = New-Item -ItemType Directory -Path $dir
            Mock -ModuleName WmcoHost Get-Item -ParameterFilter { $LiteralPath -eq $dir } { New-FakeFolderItem 'Junction' 'C:\Users\eve\k' }
            { InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } } |
                Should -Throw "folder $dir is a Junction to C:\Users\eve\k (a reparse point)*cmd /c rmdir*"
            @($WmcoFake.Calls) | Should -Be @()
        }
        It 'refuses a folder someone else made between the look and the create' {
            # Create keeps what is there; the folder a user made first is theirs.
            Mock -ModuleName WmcoHost New-WmcoProtectedDirectory {
                $null = New-Item -ItemType Directory -Path $Path
                $global:WmcoFake.Acls[$Path] = New-TestAcl -Owner 'S-1-5-21-1-2-3-1001' -Rules (Get-OperatorRules)
            }
            { InModuleScope WmcoHost -Parameters @{ d = $dir } { param($d) Protect-WmcoDirectory $d } } |
                Should -Throw "folder $dir is owned by S-1-5-21-1-2-3-1001*"
            @($WmcoFake.Calls) | Should -Not -Contain "Set-Acl $dir"
        }
    }

    Describe 'observe checkFolders' {
        It 'reports the folders the module would refuse, in request order, and nothing for the others' {
            $null = New-Item -ItemType Directory -Path $dir
            Mock -ModuleName WmcoHost Get-Item -ParameterFilter { $LiteralPath -eq $dir } { New-FakeFolderItem 'Junction' 'C:\Users\eve\k' }
            $clean = Join-Path $root 'clean'
            $null = New-Item -ItemType Directory -Path $clean
            $WmcoFake.Acls[$clean] = New-TestAcl -Rules (Get-OperatorRules)
            $out = Invoke-WmcoJson (New-ObserveRequest @{ checkFolders = @($clean, $dir, (Join-Path $root 'missing')) })
            $problems = Get-JsonAt $out.Json 'state.folderProblems'
            $problems.GetArrayLength() | Should -Be 1
            (Get-JsonAt $problems '0.path').GetString() | Should -Be $dir
            (Get-JsonAt $problems '0.reason').GetString() | Should -Be 'is a Junction to C:\Users\eve\k (a reparse point)'
        }
        It 'is an empty list when every folder is fine, and absent when not asked' {
            (Get-JsonAt (Invoke-WmcoJson (New-ObserveRequest @{ checkFolders = @($dir) })).Json 'state.folderProblems').GetArrayLength() | Should -Be 0
            @((Invoke-WmcoJson (New-ObserveRequest)).Json.GetProperty('state').EnumerateObject() | ForEach-Object { $_.Name }) |
                Should -Not -Contain 'folderProblems'
        }
    }

    Describe 'Initialize-WmcoWorkArea' {
        BeforeEach {
            $staging = Join-Path $root 'wmco' 'staging'
            InModuleScope WmcoHost -Parameters @{ s = $staging } { param($s) $script:StagingDir = $s }
        }
        It 'creates the working area and its staging folder, both protected, and returns nothing' {
            InModuleScope WmcoHost { Initialize-WmcoWorkArea } | Should -BeNullOrEmpty
            foreach ($folder in @((Split-Path -Parent $staging), $staging)) {
                InModuleScope WmcoHost -Parameters @{ d = $folder } { param($d) Test-WmcoProtected $d } | Should -BeTrue
            }
        }
        It 'returns the refusal for a working area Users can write, and creates nothing in it' {
            $work = Split-Path -Parent $staging
            $null = New-Item -ItemType Directory -Path $work
            $WmcoFake.Acls[$work] = New-TestAcl -Rules (@(Get-OperatorRules) + @(New-FakeAccessRule 'S-1-5-32-545' -Rights 0x6)) -Protected $false
            InModuleScope WmcoHost { Initialize-WmcoWorkArea } |
                Should -BeLike "folder $work lets non-administrators write: BUILTIN\Users (S-1-5-32-545) CreateFiles, CreateDirectories, so*Fix: *"
            Test-Path -LiteralPath $staging | Should -BeFalse
            @($WmcoFake.Calls) | Should -Be @()
        }
    }
}
