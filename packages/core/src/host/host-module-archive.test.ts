import test from 'ava';
import { loadHostModule } from './host-module.js';
import { stagedArchivePathFor, stagedPathFor } from './protocol/index.js';

/** The body of one function of the module, from its `function` line to the next one. */
function functionBody(text: string, name: string): string {
  const start = text.indexOf(`function ${name} {`);
  if (start < 0) throw new Error(`no function ${name}`);
  const next = text.indexOf('\nfunction ', start + 1);
  return text.slice(start, next < 0 ? undefined : next);
}

test('compressed payload files: extracted with System32 tar.exe into staging, hash-checked by the caller', async (t) => {
  const { text } = await loadHostModule();
  const expand = functionBody(text, 'Expand-WmcoStagedArchive');
  t.regex(expand, /Join-Path \$env:SystemRoot 'System32\\tar\.exe'/);
  t.regex(expand, /& \$tar -x -z -f \$archive -C \$folder/);
  t.regex(expand, /\$LASTEXITCODE -ne 0/);
  // The archive and the extraction folder go whatever happens; an existing uncompressed file wins.
  t.regex(
    expand,
    /finally \{\s+Remove-Item -LiteralPath \$folder -Recurse -Force[^\n]*\s+Remove-Item -LiteralPath \$archive/,
  );
  t.regex(expand, /Test-Path -LiteralPath \$staged -PathType Leaf\) -or -not/);
  const install = functionBody(text, 'Install-WmcoStagedFile');
  const expandAt = install.indexOf('Expand-WmcoStagedArchive $Path $Sha256');
  t.true(
    expandAt > 0 && expandAt < install.indexOf('Copy-WmcoVerifiedFile $staged'),
    'extract, then copy and hash',
  );
  t.regex(functionBody(text, 'Get-WmcoHostState'), /'\^\[0-9a-f\]\{64\}\(\\\.tar\\\.gz\)\?\$'/);
});

test('a staged archive sits next to the staged file it becomes', (t) => {
  const sha = 'a'.repeat(64);
  t.is(stagedArchivePathFor(sha), `${stagedPathFor(sha)}.tar.gz`);
  t.is(stagedArchivePathFor(sha), `C:\\ProgramData\\wmco\\staging\\${sha}.tar.gz`);
});
