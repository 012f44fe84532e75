// The real consumer: Debian's containerd (`ctr content fetch-object --hosts-dir`, the same ConfigureHosts
// code the CRI plugin uses for `config_path`) reads the hosts.toml files we generate and must pull through
// the loopback mirror. Proof of use is the mirror's access log showing containerd's `?ns=<source>` query,
// plus the manifest digest. Sources are unresolvable `*.invalid` names (or a dead port), so a fallback to
// the source can never succeed. See ../shared/reference/containerd-notes.md.
import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostsTomlFiles } from './hosts-toml.js';
import { mergedMirrorSets, type ImageMirrorEntry } from './mirror-sets.js';
import {
  ensureRegistryTools,
  freePort,
  makeCertificate,
  pushImage,
  removeDir,
  run,
  startRegistry,
  type Registry,
} from './oci-registry.test-helper.js';
import { buildImage } from './oci-image.test-helper.js';
import { parsePullSecret } from './pull-secret.js';

const unavailable = ensureRegistryTools();
const suite = unavailable ? test.serial.skip : test.serial;
if (unavailable) console.log(`hosts.toml containerd tests skipped: ${unavailable}`);

const USER = 'wmco';
const PASSWORD = 'mirror-pass';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const image = buildImage();
let work = '';
let certPath = '';
let mirror: Registry;
let authMirror: Registry;
let caseNo = 0;
const started = Date.now();

test.before(async () => {
  if (unavailable) return;
  work = await mkdtemp(join(tmpdir(), 'wmco-hosts-toml-'));
  const tls = await makeCertificate(work);
  certPath = tls.cert;
  const ca = await readFile(certPath);
  [mirror, authMirror] = await Promise.all([
    startRegistry(join(work, 'mirror'), tls),
    startRegistry(join(work, 'auth-mirror'), tls, { user: USER, password: PASSWORD }),
  ]);
  await pushImage(mirror.host, ca, { repo: 'team/app', tag: '1.0' });
  await pushImage(authMirror.host, ca, { repo: 'team/app', tag: '1.0', auth: BASIC });
});

test.after.always(async () => {
  await Promise.all([mirror?.stop(), authMirror?.stop()]);
  if (work) await removeDir(work);
  if (!unavailable) console.log(`hosts.toml containerd suite: ${Date.now() - started} ms`);
});

interface Input {
  idms?: ImageMirrorEntry[];
  itms?: ImageMirrorEntry[];
  pullSecret?: Record<string, string>;
  edit?: (content: string) => string;
  directoryFor?: (directory: string) => string;
}

/** Generates the hosts directory for the inputs, as the operator would, and returns its path. */
async function hostsDir(input: Input): Promise<string> {
  const dir = join(work, `hosts-${++caseNo}`);
  await mkdir(dir, { recursive: true });
  const auths = Object.fromEntries(Object.entries(input.pullSecret ?? {}).map(([k, v]) => [k, { auth: v }]));
  const creds = parsePullSecret(JSON.stringify({ auths }));
  for (const f of hostsTomlFiles(mergedMirrorSets(input.idms ?? [], input.itms ?? []), creds)) {
    const sub = join(dir, input.directoryFor ? input.directoryFor(f.directory) : f.directory);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, 'hosts.toml'), input.edit ? input.edit(f.content) : f.content);
  }
  return dir;
}

/** `ctr content fetch-object`, daemonless; the sha256 of what it printed, or undefined when it failed. */
async function fetch(dir: string, ref: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(
      'ctr',
      ['--address', join(work, 'no-daemon.sock'), 'content', 'fetch-object', '--hosts-dir', dir, ref],
      {
        env: { ...process.env, SSL_CERT_FILE: certPath },
        encoding: 'buffer',
        timeout: 20_000,
      },
    );
    return `sha256:${createHash('sha256').update(stdout).digest('hex')}`;
  } catch {
    return undefined;
  }
}

const hits = (r: Registry, source: string): number =>
  r.log().split(`ns=${encodeURIComponent(source)}`).length - 1;
const mirrorOf = (r: Registry): string => `${r.host}/team/app`;

suite(
  'tag pull through an ImageTagMirrorSet mirror; no file or a misplaced file does not use it',
  async (t) => {
    const source = 'itms.example.invalid';
    const input: Input = { itms: [{ source: `${source}/app`, mirrors: [mirrorOf(mirror)] }] };
    t.is(await fetch(await hostsDir(input), `${source}/app:1.0`), image.digest);
    const after = hits(mirror, source);
    t.true(after > 0, 'the mirror saw ?ns=<source>');
    t.is(await fetch(await hostsDir({}), `${source}/app:1.0`), undefined, 'no hosts.toml: no mirror');
    t.is(
      await fetch(
        await hostsDir({ ...input, directoryFor: () => 'other.example.invalid' }),
        `${source}/app:1.0`,
      ),
      undefined,
    );
    t.is(hits(mirror, source), after, 'negative controls never reached the mirror');
  },
);

suite('digest pull through an ImageDigestMirrorSet mirror; tags are not resolved through it', async (t) => {
  const source = 'idms.example.invalid';
  const dir = await hostsDir({ idms: [{ source: `${source}/app`, mirrors: [mirrorOf(mirror)] }] });
  t.is(await fetch(dir, `${source}/app@${image.digest}`), image.digest);
  t.true(hits(mirror, source) > 0);
  t.is(
    await fetch(dir, `${source}/app:1.0`),
    undefined,
    'digest-only mirror: the tag goes to the (dead) source',
  );
});

suite('basic-auth header from the pull secret', async (t) => {
  const source = 'auth.example.invalid';
  const itms = [{ source: `${source}/app`, mirrors: [mirrorOf(authMirror)] }];
  t.is(await fetch(await hostsDir({ itms }), `${source}/app:1.0`), undefined, 'no credentials: 401');
  t.is(
    await fetch(await hostsDir({ itms, pullSecret: { [authMirror.host]: BASIC } }), `${source}/app:1.0`),
    image.digest,
  );
  t.regex(
    authMirror.log(),
    new RegExp(`GET /v2/team/app/manifests/sha256:[0-9a-f]+\\?ns=${source}[^"]*" 200`),
  );
});

suite(
  'NeverContactSource: server is the mirror, and its credentials are needed at top level for tags',
  async (t) => {
    const source = 'never.example.invalid';
    const input: Input = {
      idms: [
        {
          source: `${source}/app`,
          mirrors: [mirrorOf(authMirror)],
          mirrorSourcePolicy: 'NeverContactSource',
        },
      ],
      pullSecret: { [authMirror.host]: BASIC },
    };
    const dir = await hostsDir(input);
    t.is(await fetch(dir, `${source}/app@${image.digest}`), image.digest);
    t.is(await fetch(dir, `${source}/app:1.0`), image.digest, 'tag resolved by the mirror as server');
    // Upstream's shape (no top-level header): the same tag pull gets 401 — the reason for our fix.
    const upstream = await hostsDir({
      ...input,
      edit: (c) => c.replace(/\[header\]\n {2}authorization = "[^"]+"\n\n/, ''),
    });
    t.false((await readFile(join(upstream, source, 'hosts.toml'), 'utf8')).includes('\n[header]'));
    t.is(await fetch(upstream, `${source}/app:1.0`), undefined);
    t.is(await fetch(upstream, `${source}/app@${image.digest}`), image.digest);
  },
);

suite('a host:port source is found in its host_port_ directory', async (t) => {
  const port = await freePort(); // nothing listens there
  const source = `127.0.0.1:${port}`;
  const dir = await hostsDir({ itms: [{ source: `${source}/app`, mirrors: [mirrorOf(mirror)] }] });
  t.deepEqual(await readdir(dir), [`127.0.0.1_${port}_`], 'the Windows-compatible directory name');
  t.is(await fetch(dir, `${source}/app:1.0`), image.digest);
  t.true(hits(mirror, source) > 0);
  t.is(await fetch(await hostsDir({}), `${source}/app:1.0`), undefined);
});
