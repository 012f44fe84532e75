// Test helper: Debian's `prometheus` (2.42), installed when missing, run on loopback against a scrape
// configuration, and asked through its HTTP API. Every process it starts is stopped by its PID.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/**
 * Makes sure `prometheus` and `openssl` exist, installing the Debian packages when missing (no service is
 * started at install time). Returns why they cannot be had only when apt itself is missing; a failing
 * installation throws (and so fails the test).
 */
export function ensurePrometheus(): string | undefined {
  if (has('prometheus') && has('openssl')) return undefined;
  if (!has('apt-get')) return 'apt-get is not available to install prometheus';
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  const script = [
    ownPolicy ? `printf '#!/bin/sh\\nexit 101\\n' > ${policy} && chmod +x ${policy}` : 'true',
    'apt-get update -qq',
    'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus openssl',
  ].join(' && ');
  const result = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 300_000 });
  if (ownPolicy) spawnSync('rm', ['-f', policy]);
  if (result.status !== 0) throw new Error(`installing prometheus failed: ${result.stderr}`);
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export interface ScrapeJob {
  readonly name: string;
  readonly targets: readonly string[];
  /** PEM file Prometheus trusts for this job, and the name it checks the certificate against. */
  readonly caFile: string;
  readonly serverName: string;
}

export interface RunningPrometheus {
  readonly url: string;
  /** `/api/v1/targets` active targets: job, scrape URL, health and last error. */
  targets(): Promise<{ job: string; scrapeUrl: string; health: string; lastError: string }[]>;
  /** `/api/v1/query` instant vector: each sample's labels. */
  query(expr: string): Promise<Record<string, string>[]>;
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Starts Prometheus scraping the jobs over HTTPS every second; `stop()` ends it by its PID. */
export async function startPrometheus(dir: string, jobs: readonly ScrapeJob[]): Promise<RunningPrometheus> {
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: jobs.map((j) => ({
      job_name: j.name,
      scheme: 'https',
      tls_config: { ca_file: j.caFile, server_name: j.serverName },
      static_configs: [{ targets: j.targets }],
    })),
  };
  // JSON is YAML: no YAML writer needed.
  await writeFile(join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const api = async (path: string): Promise<Json> => {
    const res = await fetch(`${url}${path}`);
    return ((await res.json()) as { data?: Json }).data ?? {};
  };
  return {
    url,
    targets: async () =>
      ((await api('/api/v1/targets'))['activeTargets'] as Json[]).map((t) => ({
        job: text((t['labels'] as Json | undefined)?.['job']),
        scrapeUrl: text(t['scrapeUrl']),
        health: text(t['health']),
        lastError: text(t['lastError']),
      })),
    query: async (expr) =>
      ((await api(`/api/v1/query?query=${encodeURIComponent(expr)}`))['result'] as Json[]).map(
        (r) => r['metric'] as Record<string, string>,
      ),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.pid === undefined) return resolve();
        child.once('exit', () => resolve());
        process.kill(child.pid, 'SIGTERM');
      }),
  };
}
