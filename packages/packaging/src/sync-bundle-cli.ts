#!/usr/bin/env node
// Regenerates the CSV's install strategy from deploy/. `--check` exits 1 (and writes nothing) when the
// committed CSV differs. Usage: node packages/packaging/dist/sync-bundle-cli.js [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deploySources, syncCsv } from './csv-sync.js';
import { listYamlFiles } from './manifest-files.js';
import { REPO_ROOT } from './repo-root.js';

const CSV_PATH = join(
  REPO_ROOT,
  'bundle/manifests/windows-machine-config-operator.clusterserviceversion.yaml',
);

const files = listYamlFiles(join(REPO_ROOT, 'deploy')).map((f) => ({
  text: readFileSync(f, 'utf8'),
  source: relative(REPO_ROOT, f),
}));
const current = readFileSync(CSV_PATH, 'utf8');
const next = syncCsv(current, deploySources(files));
if (process.argv.includes('--check')) {
  if (next !== current) {
    process.stderr.write(
      `${relative(REPO_ROOT, CSV_PATH)} is out of date; run pnpm --filter @wmco/packaging sync-bundle\n`,
    );
    process.exitCode = 1;
  }
} else if (next !== current) {
  writeFileSync(CSV_PATH, next);
  process.stdout.write(`updated ${relative(REPO_ROOT, CSV_PATH)}\n`);
}
