import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvObject } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

test('the CSV carries bundle/icon.svg as its one icon, a small SVG with a viewBox', (t) => {
  const icons = (csvObject()['spec'] as { icon?: { base64data: string; mediatype: string }[] }).icon ?? [];
  t.is(icons.length, 1);
  t.is(icons[0]?.mediatype, 'image/svg+xml');
  const svg = Buffer.from(icons[0]?.base64data ?? '', 'base64').toString('utf8');
  t.is(svg, readFileSync(join(REPO_ROOT, 'bundle/icon.svg'), 'utf8'));
  t.regex(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
  t.true(svg.trimEnd().endsWith('</svg>'));
  t.true(svg.length < 4096, `${svg.length} bytes`);
});
