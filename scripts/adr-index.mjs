#!/usr/bin/env node
// Rewrites the table of docs/adr/README.md from the ADR files' headings and `Status:` lines
// (`node scripts/adr-index.mjs`); packages/operator/src/lint/adr-index.test.ts checks the result.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'adr');
const rows = readdirSync(dir)
  .filter((f) => /^\d{4}-.*\.md$/.test(f))
  .sort()
  .map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const title = /^# ADR \d{4}: (.+)$/m.exec(text)?.[1] ?? '(no heading)';
    const status = /^Status: ([a-z]+)/m.exec(text)?.[1] ?? '(no status)';
    return `| [${file.slice(0, 4)}](${file}) | ${title.replaceAll('|', '\\|')} | ${status} |`;
  });
const index = join(dir, 'README.md');
const head = readFileSync(index, 'utf8').split('| ADR |')[0];
writeFileSync(index, `${head}| ADR | Decision | Status |\n| --- | -------- | ------ |\n${rows.join('\n')}\n`);
