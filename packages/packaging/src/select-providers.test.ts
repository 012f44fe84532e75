import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './repo-root.js';

const SCRIPT = join(REPO_ROOT, 'scripts/select-providers.mjs');
const ALL = ['aws', 'azure', 'gcp', 'vsphere', 'nutanix', 'none'];

interface Result {
  code: number;
  stdout: string;
  stderr: string;
  baked: string[];
  deps: string[];
}

/** Runs the script on a copy of the operator's package.json and baked-providers.json. */
async function select(args: readonly string[], prepare?: (dir: string) => void): Promise<Result> {
  const root = mkdtempSync(join(tmpdir(), 'wmco-select-'));
  try {
    const dir = join(root, 'packages/operator');
    mkdirSync(dir, { recursive: true });
    for (const f of ['package.json', 'baked-providers.json']) {
      cpSync(join(REPO_ROOT, 'packages/operator', f), join(dir, f));
    }
    prepare?.(dir);
    let code = 0;
    let out = { stdout: '', stderr: '' };
    try {
      out = await promisify(execFile)(process.execPath, [SCRIPT, ...args, '--root', root]);
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      ({ code } = e);
      out = e;
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const baked = JSON.parse(readFileSync(join(dir, 'baked-providers.json'), 'utf8')) as {
      providers: string[];
    };
    const deps = Object.keys(pkg.dependencies)
      .filter((d) => d.startsWith('@wmco/provider-'))
      .map((d) => d.slice('@wmco/provider-'.length))
      .sort();
    return { code, stdout: out.stdout, stderr: out.stderr, baked: baked.providers, deps };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the repository bakes in every provider the operator depends on', async (t) => {
  const r = await select(['--providers', 'all']);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.baked, ALL);
  t.deepEqual(r.deps, [...ALL].sort());
});

test('a subset keeps listing order and drops the other packages from the dependencies', async (t) => {
  const r = await select(['--providers', ' None, VSPHERE ,,none']);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.baked, ['vsphere', 'none']);
  t.deepEqual(r.deps, ['none', 'vsphere']);
  t.is(r.stdout.trim(), 'providers baked in: vsphere, none; left out: aws, azure, gcp, nutanix');
});

test('other dependencies are kept', async (t) => {
  const before = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/operator/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const root = mkdtempSync(join(tmpdir(), 'wmco-select-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'packages/operator');
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'baked-providers.json'])
    cpSync(join(REPO_ROOT, 'packages/operator', f), join(dir, f));
  await promisify(execFile)(process.execPath, [SCRIPT, '--providers', 'aws', '--root', root]);
  const after = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const nonProvider = (d: Record<string, string>): string[] =>
    Object.keys(d).filter((k) => !k.startsWith('@wmco/provider-'));
  t.deepEqual(nonProvider(after.dependencies), nonProvider(before.dependencies));
  t.true('@wmco/provider-aws' in after.dependencies);
});

test('bad selections fail with a message and change nothing', async (t) => {
  const cases: [string[], RegExp][] = [
    [
      ['--providers', 'aws,openstack'],
      /unknown provider\(s\) openstack; this tree has: aws, azure, gcp, vsphere, nutanix, none/,
    ],
    [['--providers', ' , '], /PROVIDERS is empty/],
    [[], /--providers is required/],
    [['--providers', 'aws', '--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [args, message] of cases) {
    const r = await select(args);
    t.is(r.code, 2, args.join(' '));
    t.regex(r.stderr, message);
    t.deepEqual(r.baked, ALL);
    t.deepEqual(r.deps, [...ALL].sort());
  }
});

test('a tree that lost a provider package says which one', async (t) => {
  const r = await select(['--providers', 'aws,gcp'], (dir) => {
    const path = join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { dependencies: Record<string, string> };
    delete pkg.dependencies['@wmco/provider-gcp'];
    writeFileSync(path, JSON.stringify(pkg));
  });
  t.is(r.code, 2);
  t.regex(r.stderr, /has no dependency on @wmco\/provider-gcp/);
});
