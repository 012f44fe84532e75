import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { newRootContainer } from '@wmco/core';
import { OPERATOR_NAMESPACE, startSimCluster } from '@wmco/sim';
import type { CliContext } from '@wmco/operator';
import { buildProgram } from '@wmco/operator';

test('wmco status escapes what someone wrote into the status ConfigMap', async (t) => {
  const cluster = await startSimCluster();
  const dir = await mkdtemp(join(tmpdir(), 'wmco-status-'));
  t.teardown(async () => {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const files = await cluster.writeKubeconfigs(dir);
  const kc = new KubeConfig();
  kc.loadFromFile(files.admin);
  const good = {
    address: '10.0.0.1',
    phase: 'Failed',
    node: 'win-a\u001b]0;owned\u0007',
    since: new Date().toISOString(),
    phaseSeconds: {},
    lastError: 'clear\u001b[2J\u001b[31m red\r\nfake line\u202e',
  };
  await kc.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: OPERATOR_NAMESPACE,
    body: {
      metadata: { name: 'windows-instances-status' },
      data: { '10.0.0.1': JSON.stringify(good), broken: '\u001b[31mnot json' },
    },
  });
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: {},
  };
  const program = (await buildProgram(ctx)).exitOverride();
  await program.parseAsync(['status', '--kubeconfig', files.admin, '-n', OPERATOR_NAMESPACE], {
    from: 'user',
  });
  const text = out.join('\n');
  t.false(/[^\P{Cc}\n]|\u202e/u.test(text), 'no control character reaches the terminal');
  t.true(text.includes('clear\\u001b[2J\\u001b[31m red\\u000d\\u000afake line\\u202e'));
  t.true(text.includes('win-a\\u001b]0;owned\\u0007'));
  t.deepEqual(err, ['skipping entry "broken": not a status object']);
});

/** A simulated cluster with two instance statuses written as the operator writes them. */
async function clusterWithStatuses(t: ExecutionContext): Promise<{ kubeconfig: string; api: CoreV1Api }> {
  const cluster = await startSimCluster();
  const dir = await mkdtemp(join(tmpdir(), 'wmco-status-'));
  t.teardown(async () => {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const files = await cluster.writeKubeconfigs(dir);
  const kc = new KubeConfig();
  kc.loadFromFile(files.admin);
  const api = kc.makeApiClient(CoreV1Api);
  const since = new Date().toISOString();
  const byoh = {
    address: '10.0.0.1',
    phase: 'Ready',
    node: 'win-a',
    since,
    phaseSeconds: {},
    source: 'byoh',
  };
  const machine = {
    address: 'machine.win-m',
    machine: 'win-m',
    phase: 'Configuring',
    node: 'win-m',
    since,
    phaseSeconds: {},
    source: 'machine',
  };
  await api.createNamespacedConfigMap({
    namespace: OPERATOR_NAMESPACE,
    body: {
      metadata: { name: 'windows-instances-status' },
      data: { '10.0.0.1': JSON.stringify(byoh), 'machine.win-m': JSON.stringify(machine) },
    },
  });
  return { kubeconfig: files.admin, api };
}

function capture(signal?: AbortSignal): { ctx: CliContext; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: {},
    ...(signal ? { signal } : {}),
  };
  return { ctx, out, err };
}

async function status(kubeconfig: string, args: readonly string[]): Promise<{ out: string; error?: string }> {
  const { ctx, out, err } = capture();
  const program = (await buildProgram(ctx)).exitOverride();
  for (const c of program.commands) c.exitOverride();
  try {
    await program.parseAsync(['status', '--kubeconfig', kubeconfig, '-n', OPERATOR_NAMESPACE, ...args], {
      from: 'user',
    });
    return { out: [...out, ...err].join('\n') };
  } catch (e) {
    return { out: [...out, ...err].join('\n'), error: e instanceof Error ? e.message : String(e) };
  }
}

test('wmco status -o name, -o jsonpath, --no-headers and a node filter, as kubectl has them', async (t) => {
  const { kubeconfig } = await clusterWithStatuses(t);
  t.is((await status(kubeconfig, ['-o', 'name'])).out, 'byoh/10.0.0.1\nmachine/win-m');
  t.is(
    (await status(kubeconfig, ['-o', 'jsonpath={range .instances[*]}{.node}={.phase}{"\\n"}{end}'])).out,
    'win-a=Ready\nwin-m=Configuring\n',
  );
  const table = (await status(kubeconfig, [])).out.split('\n');
  t.regex(table[0] ?? '', /^SOURCE\s+HOST/);
  const bare = (await status(kubeconfig, ['--no-headers'])).out.split('\n');
  t.deepEqual(bare.length, 2);
  t.regex(bare[0] ?? '', /^BYOH\s+10\.0\.0\.1\s+win-a\s+Ready/);
  t.is((await status(kubeconfig, ['win-m', '-o', 'name'])).out, 'machine/win-m');
  t.is((await status(kubeconfig, ['10.0.0.1', '-o', 'name'])).out, 'byoh/10.0.0.1');
  const missing = await status(kubeconfig, ['win-zz']);
  t.regex(missing.error ?? '', /no Windows instance .* "win-zz"/);
  const bad = await status(kubeconfig, ['-o', 'wide2']);
  t.regex(bad.error ?? '', /Allowed choices are table, wide, json, yaml, name, jsonpath=<template>/);
});

test('wmco status -w prints an instance again when it changes, until interrupted', async (t) => {
  const { kubeconfig, api } = await clusterWithStatuses(t);
  const abort = new AbortController();
  const { ctx, out } = capture(abort.signal);
  const program = (await buildProgram(ctx)).exitOverride();
  const running = program.parseAsync(
    ['status', '--kubeconfig', kubeconfig, '-n', OPERATOR_NAMESPACE, '-w', '-o', 'name', 'win-m'],
    { from: 'user' },
  );
  const until = async (what: string, ok: () => boolean): Promise<void> => {
    for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!ok()) throw new Error(`timed out waiting for ${what}`);
  };
  await until('the list', () => out.length === 1);
  t.is(out[0], 'machine/win-m');
  const cm = await api.readNamespacedConfigMap({
    name: 'windows-instances-status',
    namespace: OPERATOR_NAMESPACE,
  });
  const machine = JSON.parse(cm.data?.['machine.win-m'] ?? '{}') as Record<string, unknown>;
  const byoh = JSON.parse(cm.data?.['10.0.0.1'] ?? '{}') as Record<string, unknown>;
  await api.replaceNamespacedConfigMap({
    name: 'windows-instances-status',
    namespace: OPERATOR_NAMESPACE,
    body: {
      ...cm,
      data: {
        ...cm.data,
        'machine.win-m': JSON.stringify({ ...machine, phase: 'Ready' }),
        '10.0.0.1': JSON.stringify({ ...byoh, phase: 'Upgrading' }),
      },
    },
  });
  await until('the changed instance printed', () => out.length === 2);
  t.deepEqual(out, ['machine/win-m', 'machine/win-m'], 'the filtered-out instance is not printed');
  abort.abort();
  await running;
  t.pass('interrupting ends the watch');
});
