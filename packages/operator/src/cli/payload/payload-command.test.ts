import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { newRootContainer } from '@wmco/core';
import { realisticPayload, tarGzOf } from '@wmco/sim';
import type { CliContext } from '../cli-context.js';
import { payloadCommand } from './payload-command.js';
import type { PayloadReport } from './verify-payload.js';

let cache = '';
let generated = '';
test.before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'wmco-payload-cli-'));
  generated = (await realisticPayload(cache, 0.01)).dir;
});
test.after.always(() => rm(cache, { recursive: true, force: true }));

function context(out: string[]): CliContext {
  const push = (s: string): void => void out.push(s);
  return { container: newRootContainer(), builtinProviders: [], stdout: push, stderr: push, env: {} };
}

async function run(args: string[], out: string[] = []): Promise<string> {
  const cmd = payloadCommand(context(out));
  for (const c of [cmd, ...cmd.commands]) c.exitOverride().configureOutput({ writeErr: () => undefined });
  await cmd.parseAsync(args, { from: 'user' });
  return out.join('\n');
}

test('prints one row per file and succeeds on a good payload', async (t) => {
  const text = await run(['verify', generated, '--kubernetes-version', 'v1.36.3']);
  t.regex(text, /^FILE\s+STATUS\s+PATH\s+DETAIL/);
  t.regex(
    text,
    /kubelet\.exe\s+OK\s+kube-node\/kubelet\.exe\.tar\.gz\s+sha256 matches; kubelet version 1\.36\.0\.0/,
  );
});

test('fails naming each bad file, after printing the report', async (t) => {
  const dir = join(cache, 'tampered');
  await cp(generated, dir, { recursive: true });
  await writeFile(
    join(dir, 'hybrid-overlay-node.exe.tar.gz'),
    await tarGzOf('hybrid-overlay-node.exe', Buffer.from('x')),
  );
  await rm(join(dir, 'containerd/containerd.exe.tar.gz'));
  const out: string[] = [];
  const err = await t.throwsAsync(run(['verify', dir, '--kubernetes-version', 'v1.38.0'], out));
  t.is(
    err?.message,
    `payload ${dir} is not usable: kubelet.exe (wrong-version), hybrid-overlay-node.exe (modified), containerd.exe (missing)`,
  );
  t.regex(out.join('\n'), /hybrid-overlay-node\.exe\s+MODIFIED/);
});

test('reads the cluster version through --kubeconfig', async (t) => {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/version' ? { gitVersion: 'v1.38.2', major: '1', minor: '38' } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void server.close());
  const { port } = server.address() as AddressInfo;
  const kubeconfig = join(cache, 'kubeconfig');
  await writeFile(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'c', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } },
      ],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  const err = await t.throwsAsync(run(['verify', generated, '--kubeconfig', kubeconfig]));
  t.regex(err?.message ?? '', /kubelet\.exe \(wrong-version\)/);
  const out: string[] = [];
  await t.throwsAsync(run(['verify', generated, '--kubeconfig', kubeconfig, '-o', 'json'], out));
  const report = JSON.parse(out.join('')) as PayloadReport;
  t.regex(report.files.find((f) => f.name === 'kubelet.exe')?.detail ?? '', /v1\.38\.2/);
});

test('a version that is no Kubernetes version is a usage error', async (t) => {
  const err = await t.throwsAsync(run(['verify', generated, '--kubernetes-version', 'latest']));
  t.regex(err?.message ?? '', /"latest" is not a Kubernetes version/);
});
