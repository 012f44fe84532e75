import test from 'ava';
import Parser from 'tree-sitter';
import { loadHostModule } from './host-module.js';
import { hostInvocationScript } from './protocol/invocation.js';
import { hostInstallInvocationScript, parseHostInstallInvocation } from './protocol/install-invocation.js';

// The grammar's package types point at a directory, which NodeNext cannot resolve; its binding also uses
// top-level await, so it must be loaded with import(), not require().
const grammarPackage: string = 'tree-sitter-powershell/bindings/node/index.js';
const { default: PowerShell } = (await import(grammarPackage)) as { default: Parser.Language };

interface SyntaxNodeLike {
  type: string;
  isMissing: boolean;
  startPosition: { row: number; column: number };
  children: SyntaxNodeLike[];
}

function problems(node: SyntaxNodeLike, out: string[] = []): string[] {
  if (node.type === 'ERROR' || node.isMissing) {
    out.push(`${node.type} at ${node.startPosition.row + 1}:${node.startPosition.column + 1}`);
  }
  for (const child of node.children) problems(child, out);
  return out;
}

test('WmcoHost.psm1 parses with tree-sitter-powershell without error nodes', async (t) => {
  const module = await loadHostModule();
  const parser = new Parser();
  parser.setLanguage(PowerShell);
  const tree = parser.parse(module.text);
  t.deepEqual(problems(tree.rootNode as unknown as SyntaxNodeLike), []);
  t.false(tree.rootNode.hasError);
});

test('the parse check finds errors (it can fail)', (t) => {
  const parser = new Parser();
  parser.setLanguage(PowerShell);
  const tree = parser.parse('function Broken { if ($x -eq { }');
  t.true(tree.rootNode.hasError);
});

test('the module implements every operation and the safety rules', async (t) => {
  const { text, remotePath, sha256 } = await loadHostModule();
  for (const op of ["'observe'", "'apply'", "'deconfigure'", "'reboot'"]) t.true(text.includes(op), op);
  t.regex(text, /1060/);
  t.regex(text, /\$ProgressPreference = 'SilentlyContinue'\s+\$null = Install-WindowsFeature/);
  t.regex(text, /Session Manager\\Environment/);
  t.regex(text, /Get-HnsNetwork/);
  t.regex(text, /OpenShift managed/);
  // Pre-scripts: their own scope, errors caught per script, run before the state is collected.
  t.regex(text, /& \(?\$block\b|& \(\[scriptblock\]::Create\(/);
  t.regex(text, /\[scriptblock\]::Create\(\$CommandLine\)/);
  t.regex(text, /catch \{\s+\$results\[\[string\]\$entry\.name\] = \[ordered\]@\{ ok = \$false; error = /);
  t.true(text.indexOf('Invoke-WmcoEvaluate $evaluate') < text.indexOf('$wanted = @($Request.services)'));
  t.is(remotePath, `C:\\ProgramData\\wmco\\WmcoHost-${sha256.slice(0, 16)}.psm1`);
});

test('the invocation script parses and checks the module hash before running it', async (t) => {
  const { remotePath, sha256 } = await loadHostModule();
  const script = hostInvocationScript({ modulePath: remotePath, sha256 });
  const parser = new Parser();
  parser.setLanguage(PowerShell);
  const tree = parser.parse(script);
  t.deepEqual(problems(tree.rootNode as unknown as SyntaxNodeLike), []);
  // Read once, hash, compare, then run the same bytes; no Import-Module of the file path.
  t.true(script.indexOf('ReadAllBytes') < script.indexOf('ComputeHash($bytes)'));
  t.true(script.indexOf(`-ne '${sha256}'`) < script.indexOf('New-Module'));
  t.regex(script, /\[scriptblock\]::Create\(\$utf8\.GetString\(\$bytes\)/);
  t.false(script.includes('Import-Module'));
});

test('host-side trust rules: protected folders first, verified copies, links never followed', async (t) => {
  const { text } = await loadHostModule();
  const apply = text.slice(text.indexOf('function Invoke-WmcoApply'));
  t.true(apply.indexOf('Initialize-WmcoDirectories') < apply.indexOf('Invoke-WmcoStep $step'));
  t.regex(text, /SetAccessRuleProtection\(\$true, \$false\)/);
  t.regex(text, /'S-1-5-18'/);
  t.regex(text, /'S-1-5-32-544'/);
  // Staged files: copied, then the copy is hashed (Copy-WmcoVerifiedFile), then moved.
  const copy = text.slice(text.indexOf('function Copy-WmcoVerifiedFile'));
  t.true(copy.indexOf('Copy-Item') < copy.indexOf('Get-WmcoFileHash $Destination'));
  // Deconfigure: own traversal that checks ReparsePoint; no recursive cmdlets that follow junctions.
  const deconfigure = text.slice(
    text.indexOf('function Invoke-WmcoDeconfigure'),
    text.indexOf('function Invoke-WmcoReboot'),
  );
  t.false(/-Recurse/.test(deconfigure));
  t.regex(text, /ReparsePoint/);
  t.regex(text, /\[System\.IO\.Directory\]::Delete\(\$path, \$false\)/);
});

test('the first-contact invocation parses, checks the module, has it check and protect the working area, then writes it', async (t) => {
  const { remotePath, sha256 } = await loadHostModule();
  const script = hostInstallInvocationScript({ modulePath: remotePath, sha256 });
  const parser = new Parser();
  parser.setLanguage(PowerShell);
  t.deepEqual(problems(parser.parse(script).rootNode as unknown as SyntaxNodeLike), []);
  t.deepEqual(parseHostInstallInvocation(script), { modulePath: remotePath, sha256 });
  t.is(
    parseHostInstallInvocation(script.replace('Move-Item', 'Copy-Item')),
    undefined,
    'only the exact form',
  );
  const order = [
    'FromBase64String',
    `-ne '${sha256}'`,
    'New-Module',
    'Initialize-WmcoWorkArea',
    'exit 4',
    'WriteAllBytes',
    'Move-Item',
    'Invoke-WmcoHost',
  ];
  const at = order.map((s) => script.indexOf(s));
  t.false(at.includes(-1), order.join(', '));
  t.deepEqual(
    [...at].sort((a, b) => a - b),
    at,
    'decode, check, load, check the folders (refuse: exit), write, move, run',
  );
  t.false(script.includes('Set-Acl'), "the folders are the module's to check and protect");
  t.true(script.includes(`WriteAllBytes('${remotePath}.part'`), 'never half-written at the module path');
  t.false(script.includes('Import-Module'));
});

test('apply runs runScript steps with their arguments as data, and schedules a restart only when asked', async (t) => {
  const { text } = await loadHostModule();
  const step = text.slice(text.indexOf("'runScript' {"), text.indexOf("'setServiceEnvironment'"));
  t.regex(step, /Invoke-WmcoScript \(\[string\]\$Step\.script\) \$arguments/);
  const apply = text.slice(text.indexOf('function Invoke-WmcoApply'), text.indexOf('function Test-WmcoLink'));
  t.regex(apply, /if \(\$reboot -and \$RebootWhenRequired\) \{\s+\$null = Invoke-WmcoReboot/);
  t.true(apply.indexOf('Invoke-WmcoReboot') > apply.indexOf('Remove-Item'), 'after every step succeeded');
});

test('startServices starts every service of the level, then waits for each (one PowerShell process)', async (t) => {
  const { text } = await loadHostModule();
  t.regex(text, /'startServices' \{ Start-WmcoServices \(\[string\[\]\]@\(\$Step\.names\)\) \}/);
  const fn = text.slice(
    text.indexOf('function Start-WmcoServices'),
    text.indexOf('function Set-WmcoServiceConfig'),
  );
  const loops = fn.split(/foreach \(/);
  t.is(loops.length, 3, 'two loops: start all, then wait for all');
  t.regex(loops[1]!, /\$controller\.Start\(\)/);
  t.notRegex(loops[1]!, /WaitForStatus/, 'no wait while starting');
  t.regex(loops[2]!, /Wait-WmcoServiceRunning \$controller/);
  t.regex(fn, /throw "service '\$name' did not start: /);
  // Waiting looks every half second, so a service that stops again fails at once (Pester: Services.Tests.ps1).
  const wait = text.slice(text.indexOf('function Wait-WmcoServiceRunning'));
  t.regex(wait, /WaitForStatus\('Running', \$script:ServicePollInterval\)/);
  t.regex(wait, /stopped while starting: /);
  // The done list names the level's services.
  t.regex(text, /-contains 'names'\) \{ return \(@\(\$Step\.names\) -join ', '\) \}/);
});
