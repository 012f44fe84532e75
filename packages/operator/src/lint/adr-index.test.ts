import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';

// docs/adr/README.md indexes every decision record with its status line; this keeps the index, the
// file names, the headings and the status lines in step, so a newcomer can trust the table.
const adrDir = fileURLToPath(new URL('../../../../docs/adr/', import.meta.url));
const STATUSES = new Set(['accepted', 'amended', 'superseded']);

interface Record {
  readonly file: string;
  readonly number: string;
  readonly title: string;
  readonly status: string | undefined;
}

function readRecords(): Record[] {
  return readdirSync(adrDir)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(adrDir + file, 'utf8');
      const heading = /^# ADR (\d{4}): (.+)$/m.exec(text.split('\n')[0] ?? '');
      const status = /^Status: ([a-z]+)/m.exec(text)?.[1];
      return { file, number: heading?.[1] ?? '', title: heading?.[2] ?? '', status };
    });
}

function indexRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(adrDir + 'README.md', 'utf8').split('\n')) {
    const m = /^\| \[(\d{4})\]\(([^)]+)\) \| (.+) \| ([a-z]+) \|$/.exec(line);
    if (m) rows.set(m[2] ?? '', [m[1] ?? '', (m[3] ?? '').replaceAll('\\|', '|'), m[4] ?? '']);
  }
  return rows;
}

test('every ADR has a heading with its own number and a known status', (t) => {
  const records = readRecords();
  t.true(records.length > 30);
  for (const r of records) {
    t.is(r.number, r.file.slice(0, 4), `${r.file}: heading must be "# ADR ${r.file.slice(0, 4)}: <title>"`);
    t.true(STATUSES.has(r.status ?? ''), `${r.file}: needs a "Status: accepted|amended|superseded" line`);
  }
  t.is(new Set(records.map((r) => r.number)).size, records.length, 'two ADRs share a number');
});

test('docs/adr/README.md lists every ADR with its title and status, and nothing else', (t) => {
  const rows = indexRows();
  const records = readRecords();
  for (const r of records) {
    t.deepEqual(rows.get(r.file), [r.number, r.title, r.status], `${r.file}: index row out of date`);
  }
  t.deepEqual([...rows.keys()].sort(), records.map((r) => r.file).sort());
});
