import test from 'ava';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  CloudNodeManager,
  defineProvider,
  HostnameOverride,
  UserDataFormat,
  type WmcoProvider,
} from '@wmco/core/provider';
import { newRootContainer, parseServicesData } from '@wmco/core';
import { noneProvider } from '@wmco/provider-none';
import type { CliContext } from '../cli-context.js';
import { buildProgram } from '../program.js';

// A provider defined here, standing in for a cloud: user data, a hostname command and a cloud node manager.
const fakeProvider = defineProvider({
  id: 'fakecloud',
  platform: 'Fakecloud',
  contractVersion: 1,
  register(r) {
    r.useValue(UserDataFormat, {
      extraSteps: ["Write-Output 'fake step'"],
      wrap: (s) => `<powershell>${s}</powershell>\n`,
    });
    r.useValue(HostnameOverride, { command: 'C:\\Temp\\fake-hostname.ps1', files: [] });
    r.useValue(CloudNodeManager, {
      service: () => ({
        name: 'cloud-node-manager',
        command: 'C:\\k\\fake-cnm.exe --node-name=NODE_NAME',
        bootstrap: false,
        priority: 3,
        nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
      }),
      payload: () => [],
    });
  },
});

interface Run {
  out: string;
  err: string;
  error?: Error;
}

async function wmco(
  args: string[],
  env: Record<string, string> = {},
  providers: WmcoProvider[] = [noneProvider, fakeProvider],
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: providers,
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env,
  };
  const program = (await buildProgram(ctx)).exitOverride();
  try {
    await program.parseAsync(['node', 'wmco', 'render', ...args]);
    return { out: out.join('\n'), err: err.join('\n') };
  } catch (error) {
    return { out: out.join('\n'), err: err.join('\n'), error: error as Error };
  }
}

async function tempDir(t: { teardown: (f: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-render-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function publicKeyLine(): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const name = Buffer.from('ssh-ed25519');
  return `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, name.length]), name, Buffer.from([0, 0, 0, 32]), raw]).toString('base64')} me@host`;
}

test('render services --platform None prints a parseable ConfigMap', async (t) => {
  const r = await wmco(
    ['services', '--platform', 'None', '--vxlan-port', '4800', '--wmco-version', '11.0.0'],
    { NO_PROXY: 'a,b', SERVICES_LOG_FILE_SIZE: '50Mi' },
  );
  t.is(r.error, undefined);
  const cm = parse(r.out) as { metadata: { name: string }; data: Record<string, string> };
  t.is(cm.metadata.name, 'windows-services-11.0.0');
  const data = parseServicesData(cm.data);
  t.deepEqual(data.environmentVars, { NO_PROXY: 'a,b' });
  t.deepEqual(
    data.services.map((s) => s.name),
    ['containerd', 'kubelet', 'windows_exporter', 'hybrid-overlay-node', 'csi-proxy', 'kube-proxy'],
  );
  t.true(
    data.services.every(
      (s) => s.command.startsWith('C:\\k\\kube-log-runner.exe ') && s.command.includes('-log-file-size=50Mi'),
    ),
  );
  t.true(
    data.services
      .find((s) => s.name === 'hybrid-overlay-node')!
      .command.includes('--hybrid-overlay-vxlan-port 4800'),
  );
});

test('render services uses the platform capabilities (fake provider)', async (t) => {
  const r = await wmco(['services', '--platform', 'Fakecloud', '--debug']);
  const data = parseServicesData((parse(r.out) as { data: Record<string, string> }).data);
  t.is(data.services.at(-1)!.name, 'cloud-node-manager');
  const kubelet = data.services.find((s) => s.name === 'kubelet')!;
  t.true(
    kubelet.command.includes('--hostname-override=HOSTNAME_OVERRIDE') && kubelet.command.includes('--v=4'),
  );
});

test('render services: bad input is a clear error', async (t) => {
  t.regex(
    (await wmco(['services', '--platform', 'None', '--vxlan-port', 'x'])).error!.message,
    /VXLAN port "x"/,
  );
  t.regex(
    (await wmco(['services', '--platform', 'None'], { SERVICES_LOG_FILE_AGE: '-1s' })).error!.message,
    /SERVICES_LOG_FILE_AGE/,
  );
  t.truthy((await wmco(['services', '--platform', 'Nowhere'])).error);
  t.regex((await wmco(['services', '--platform', 'not a name'])).error!.message, /not a platform name/);
});

test('render user-data: wrapped by the platform; None has none; bad key files are errors', async (t) => {
  const dir = await tempDir(t);
  const key = join(dir, 'id.pub');
  await writeFile(key, publicKeyLine() + '\n');
  const ok = await wmco(['user-data', '--platform', 'Fakecloud', '--public-key', key]);
  t.is(ok.error, undefined);
  t.true(ok.out.startsWith('<powershell>') && ok.out.includes("Write-Output 'fake step'"));
  t.regex(
    (await wmco(['user-data', '--platform', 'None', '--public-key', key])).error!.message,
    /has no user data/,
  );
  t.regex(
    (await wmco(['user-data', '--platform', 'Fakecloud', '--public-key', join(dir, 'missing.pub')])).error!
      .message,
    /cannot read public key .*missing\.pub: no such file/,
  );
  await writeFile(key, 'ssh-rsa not-base64!');
  t.regex(
    (await wmco(['user-data', '--platform', 'Fakecloud', '--public-key', key])).error!.message,
    /public key .*id\.pub: public key data is not base64/,
  );
});

test('render kubelet-config', async (t) => {
  const r = await wmco(['kubelet-config', '--service-cidr', '172.30.0.0/16']);
  t.deepEqual((JSON.parse(r.out) as { clusterDNS: string[] }).clusterDNS, ['172.30.0.10']);
  t.regex(
    (await wmco(['kubelet-config', '--service-cidr', 'bogus'])).error!.message,
    /service network "bogus" is not a CIDR/,
  );
});

const IDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.access.redhat.com/ubi9
    mirrors: [mirror.example.com/redhat/ubi9]
    mirrorSourcePolicy: NeverContactSource
---
apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata: {name: itms}
spec:
  imageTagMirrors:
  - source: registry.local:5000/team
    mirrors: [mirror.example.net/team]
`;

test('render hosts-toml writes one file per source, with credentials from a Secret', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'sets.yaml'), IDMS);
  const dockerconfig = JSON.stringify({ auths: { 'mirror.example.com': { auth: 'dXNlcjpwYXNz' } } });
  await writeFile(
    join(dir, 'ps.yaml'),
    `kind: Secret\ndata:\n  .dockerconfigjson: ${Buffer.from(dockerconfig).toString('base64')}\n`,
  );
  const out = join(dir, 'out');
  const r = await wmco([
    'hosts-toml',
    '--mirror-sets',
    join(dir, 'sets.yaml'),
    '--pull-secret',
    join(dir, 'ps.yaml'),
    '--out',
    out,
  ]);
  t.is(r.error, undefined);
  t.deepEqual(r.out.split('\n'), [
    join(out, 'registry.access.redhat.com', 'hosts.toml'),
    join(out, 'registry.local_5000_', 'hosts.toml'),
  ]);
  const redhat = await readFile(join(out, 'registry.access.redhat.com', 'hosts.toml'), 'utf8');
  t.true(
    redhat.startsWith(
      'server = "https://mirror.example.com/v2/redhat"\n\noverride_path = true\n\n[header]\n  authorization = "Basic dXNlcjpwYXNz"\n',
    ),
  );
});

test('render hosts-toml: malformed and missing inputs are clear errors', async (t) => {
  const dir = await tempDir(t);
  const out = join(dir, 'out');
  await writeFile(join(dir, 'bad.yaml'), 'kind: ImageDigestMirrorSet\nspec: {imageDigestMirrors: [\n');
  t.regex(
    (await wmco(['hosts-toml', '--mirror-sets', join(dir, 'bad.yaml'), '--out', out])).error!.message,
    /bad\.yaml is not valid YAML/,
  );
  await writeFile(join(dir, 'cm.yaml'), 'kind: ConfigMap\n');
  t.regex(
    (await wmco(['hosts-toml', '--mirror-sets', join(dir, 'cm.yaml'), '--out', out])).error!.message,
    /document 1 has kind "ConfigMap"/,
  );
  await writeFile(
    join(dir, 'e.yaml'),
    'kind: ImageTagMirrorSet\nspec: {imageTagMirrors: [{mirrors: [x]}]}\n',
  );
  t.regex(
    (await wmco(['hosts-toml', '--mirror-sets', join(dir, 'e.yaml'), '--out', out])).error!.message,
    /imageTagMirrors\[0\] must have a string "source"/,
  );
  t.regex(
    (await wmco(['hosts-toml', '--mirror-sets', join(dir, 'nope.yaml'), '--out', out])).error!.message,
    /cannot read mirror sets file .*nope\.yaml: no such file/,
  );
  await writeFile(join(dir, 'sets.yaml'), IDMS);
  await writeFile(join(dir, 'ps.json'), '{"auths": 3}');
  t.regex(
    (
      await wmco([
        'hosts-toml',
        '--mirror-sets',
        join(dir, 'sets.yaml'),
        '--pull-secret',
        join(dir, 'ps.json'),
        '--out',
        out,
      ])
    ).error!.message,
    /pull secret .*ps\.json: pull secret has no "auths"/,
  );
});

test('render instances prints each entry or its error, and fails when any is bad', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'wi.yaml');
  await writeFile(
    file,
    'kind: ConfigMap\ndata:\n  10.1.2.3: username=Administrator\n  "::1": username=core\n  localhost: username\n',
  );
  const r = await wmco(['instances', '--configmap', file]);
  t.regex(r.out, /10\.1\.2\.3\s+10\.1\.2\.3\s+Administrator/);
  t.regex(r.out, /::1 .*IPv6 addresses are not supported/);
  t.regex(r.out, /localhost .*no "="/);
  t.regex(r.error!.message, /2 of 3 windows-instances entries are invalid/);
  await writeFile(file, 'kind: ConfigMap\ndata:\n  10.1.2.3: username=core\n');
  t.is((await wmco(['instances', '--configmap', file])).error, undefined);
  await writeFile(
    file,
    'kind: ConfigMap\ndata:\n  010.1.2.3: username=core\n  169.254.169.254: username=core\n  127.0.0.1: username=core\n',
  );
  const refused = await wmco(['instances', '--configmap', file]);
  t.regex(refused.out, /010\.1\.2\.3 .*non-canonical form/);
  t.regex(refused.out, /169\.254\.169\.254 .*link-local/);
  t.regex(refused.out, /127\.0\.0\.1 .*loopback/);
  t.regex(refused.error!.message, /3 of 3 windows-instances entries are invalid/);
  await writeFile(file, 'kind: ConfigMap\ndata: [1, 2\n');
  t.regex((await wmco(['instances', '--configmap', file])).error!.message, /is not valid YAML/);
});

const exec = promisify(execFile);
const main = fileURLToPath(new URL('../../main.js', import.meta.url));

test('the built CLI: render instances on a malformed file exits non-zero with a clear message', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'broken.yaml');
  await writeFile(file, 'kind: ConfigMap\ndata: {10.0.0.1: "username=core"\n');
  const failed = await exec(process.execPath, [main, 'render', 'instances', '--configmap', file]).catch(
    (e: unknown) => e as { code: number; stderr: string },
  );
  t.true('code' in failed && failed.code === 1);
  t.regex((failed as { stderr: string }).stderr, /^wmco: ConfigMap file .*broken\.yaml is not valid YAML/m);
  const ok = await exec(process.execPath, [
    main,
    'render',
    'kubelet-config',
    '--service-cidr',
    '10.0.128.8/24',
  ]);
  t.true(ok.stdout.includes('"clusterDNS":["10.0.128.10"]'));
});
