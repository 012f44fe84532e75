// The public API of @wmco/core, one API Extractor report per public entry point, checked into
// packages/core/api/. `node scripts/api-report.mjs` (scripts/check.sh) compares the built declarations
// (run `pnpm exec tsc -b` first) with the checked-in reports and fails when the public surface changed;
// `pnpm api:update` rewrites the reports, to be reviewed and committed with the change.
// '@wmco/core/internal' has no report: it is not a public API.
/* eslint-disable @typescript-eslint/explicit-function-return-type -- plain JavaScript, run after the build */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = resolve(import.meta.dirname, '..');
const CORE = join(ROOT, 'packages/core');

/** Each public entry point of @wmco/core: its subpath, its built declarations, its report's name. */
const ENTRIES = [
  { subpath: '@wmco/core', dts: 'dist/index.d.ts', report: 'core' },
  { subpath: '@wmco/core/provider', dts: 'dist/provider/index.d.ts', report: 'provider' },
  { subpath: '@wmco/core/testing', dts: 'dist/testing/index.d.ts', report: 'testing' },
];

// The repository's TypeScript options, for reading the emitted declarations (API Extractor bundles its own
// compiler, the same TypeScript version as the workspace). Only the entry's declarations are compiled.
const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  experimentalDecorators: true,
  skipLibCheck: true,
  types: ['node'],
};

const OFF = { logLevel: 'none' };
const QUIET = new Set([
  'console-preamble',
  'console-compiler-version-notice',
  'console-api-report-not-copied',
]);

function configFor(entry, tempFolder) {
  return {
    projectFolder: CORE,
    mainEntryPointFilePath: join(CORE, entry.dts),
    compiler: { overrideTsconfig: { compilerOptions: COMPILER_OPTIONS, files: [join(CORE, entry.dts)] } },
    newlineKind: 'lf',
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: join(CORE, 'api'),
      reportTempFolder: tempFolder,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: 'error' } },
      extractorMessageReporting: {
        default: { logLevel: 'warning' },
        // No release tags (@public/@beta): everything an entry exports is public.
        'ae-missing-release-tag': OFF,
        'ae-undocumented': OFF,
        // A type an entry uses but does not export is listed in the report, where a reviewer sees it.
        'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
      },
      // The doc comments are prose for people, not TSDoc for a documentation generator.
      tsdocMessageReporting: { default: OFF },
    },
  };
}

function run(entry, update, tempFolder) {
  const config = ExtractorConfig.prepare({
    configObject: configFor(entry, tempFolder),
    configObjectFullPath: join(CORE, 'api-extractor.json'),
    packageJsonFullPath: join(CORE, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback: (message) => {
      // The compiler notice is noise; the report's own "please update" warning is replaced by the summary.
      if (QUIET.has(message.messageId)) message.handled = true;
    },
  });
  return {
    ok: result.succeeded,
    changed: result.apiReportChanged,
    issues: result.errorCount + result.warningCount,
  };
}

/** The lines only one of the two reports has (a short diff, enough to see what changed). */
function changedLines(checkedIn, generated) {
  const read = (f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n') : []);
  const before = read(checkedIn);
  const after = read(generated);
  const had = new Set(before);
  const has = new Set(after);
  const lines = [
    ...before.filter((l) => !has.has(l)).map((l) => `  - ${l}`),
    ...after.filter((l) => !had.has(l)).map((l) => `  + ${l}`),
  ];
  return lines.length > 40 ? [...lines.slice(0, 40), `  ... ${lines.length - 40} more`] : lines;
}

const update = process.argv.includes('--update');
const tempFolder = mkdtempSync(join(tmpdir(), 'wmco-api-'));
if (update) mkdirSync(join(CORE, 'api'), { recursive: true });
let failed = false;
try {
  for (const entry of ENTRIES) {
    const { ok, changed, issues } = run(entry, update, tempFolder);
    const file = `packages/core/api/${entry.report}.api.md`;
    if (update) {
      console.log(`${changed ? 'updated' : 'unchanged'}: ${file} (${entry.subpath})`);
    } else if (changed) {
      console.error(
        `The public API of ${entry.subpath} differs from ${file}:\n` +
          changedLines(join(ROOT, file), join(tempFolder, `${entry.report}.api.md`)).join('\n') +
          '\n' +
          `If the change is intended, run \`pnpm exec tsc -b && pnpm api:update\` and commit ${file}` +
          ` (a removed or changed name is a breaking change: see packages/core/README.md, "Versioning").`,
      );
    }
    if (!ok && (!changed || update || issues > 0)) failed = true;
    if (changed && !update) failed = true;
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
