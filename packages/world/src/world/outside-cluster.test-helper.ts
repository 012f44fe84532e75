import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { OPERATOR_MAIN } from '../operator-main.js';

// Attach-mode tests' outside cluster: a plain Kubernetes cluster (simulated API server, RBAC enforced,
// no OpenShift) in its own process (outside-cluster-main.ts), known to `wmco sim --cluster` only by its
// kubeconfig.

const here = dirname(fileURLToPath(import.meta.url));
export const main = OPERATOR_MAIN;

export interface Outside {
  readonly kubeconfig: string;
  readonly audit: string;
  readonly dir: string;
  readonly kc: KubeConfig;
  readonly proc: ChildProcess;
}

export interface AuditLine {
  user: string;
  verb: string;
  resource: string;
  allowed: boolean;
}

/** Starts the outside cluster in a child process; resolves once it wrote its kubeconfig. */
export function startOutside(): Promise<Outside> {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-outside-'));
  const kubeconfig = join(dir, 'admin.kubeconfig');
  const audit = join(dir, 'audit.jsonl');
  const proc = spawn(process.execPath, [join(here, 'outside-cluster-main.js'), kubeconfig, audit], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`outside cluster exited (${String(code)})`)));
    proc.stdout?.on('data', (d: Buffer) => {
      if (!d.toString().startsWith('ready ')) return;
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      resolve({ kubeconfig, audit, dir, kc, proc });
    });
  });
}

/** An outside cluster for one test: started now, stopped when the test ends. */
export async function outsideForTest(t: { teardown: (fn: () => Promise<void>) => void }): Promise<Outside> {
  const o = await startOutside();
  t.teardown(() => stopOutside(o));
  return o;
}

export function stopOutside(o: Outside): Promise<void> {
  if (o.proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    o.proc.once('exit', () => resolve());
    o.proc.kill('SIGTERM');
  });
}

/** Every object the outside cluster stores, as `group/resource namespace/name` (sorted). */
export function snapshot(o: Outside): Promise<string[]> {
  const file = join(o.dir, `snapshot-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  return new Promise((resolve) => {
    const onData = (d: Buffer): void => {
      if (!d.toString().includes('snapshot written')) return;
      o.proc.stdout?.off('data', onData);
      resolve(JSON.parse(readFileSync(file, 'utf8')) as string[]);
    };
    o.proc.stdout?.on('data', onData);
    o.proc.stdin?.write(`snapshot ${file}\n`);
  });
}

export function wmcoSim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, 'sim', ...args], { timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** A `wmco sim` run in progress: its process, its output so far, and its end. */
export interface SimRun {
  readonly proc: ChildProcess;
  /** Resolves once stdout has printed `text`. */
  printed(text: string): Promise<void>;
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function startWmcoSim(args: string[]): SimRun {
  const proc = spawn(process.execPath, [main, 'sim', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  proc.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of waiters.filter((x) => stdout.includes(x.text))) w.resolve();
  });
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    proc.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return {
    proc,
    done,
    printed: (text) =>
      stdout.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve })),
  };
}

export function auditLines(o: Outside): AuditLine[] {
  return readFileSync(o.audit, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditLine);
}
