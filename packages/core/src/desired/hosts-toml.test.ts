import test from 'ava';
import { parse } from 'smol-toml';
import { hostsToml, hostsTomlFiles, registryHostDirectory } from './hosts-toml.js';
import type { MirrorSet } from './mirror-sets.js';
import { parsePullSecret } from './pull-secret.js';

// Vectors: registries_test.go generateConfig (reference §4.2), byte for byte.
const creds = parsePullSecret(
  '{"auths":{"mirror.example.com":{"auth":"dXNlcjpwYXNz"},"mirror.example.net":{"auth":"dXNlcm5hbWU6cGFzc3dvcmQ="}}}',
);
const R = 'registry.access.redhat.com';
const set = (mirrors: [string, boolean][], never = false, source = R): MirrorSet => ({
  source,
  mirrors: mirrors.map(([host, resolveTags]) => ({ host, resolveTags })),
  mirrorSourcePolicy: never ? 'NeverContactSource' : 'AllowContactingSource',
});
const one = (caps: string, server = 'https://registry.access.redhat.com/v2') =>
  `server = "${server}"\n\noverride_path = true\n\n[host."https://example.io/v2/example"]\n  capabilities = ${caps}\n  override_path = true\n`;
const THREE_TAIL = `override_path = true

[host."https://example.io/v2/example"]
  capabilities = ["pull"]
  override_path = true

[host."https://mirror.example.com/v2/redhat"]
  capabilities = ["pull"]
  override_path = true
  [host."https://mirror.example.com/v2/redhat".header]
    authorization = "Basic dXNlcjpwYXNz"

[host."https://mirror.example.net/v2"]
  capabilities = ["pull", "resolve"]
  override_path = true
  [host."https://mirror.example.net/v2".header]
    authorization = "Basic dXNlcm5hbWU6cGFzc3dvcmQ="
`;
const three: [string, boolean][] = [
  ['example.io/example', false],
  ['mirror.example.com/redhat', false],
  ['mirror.example.net', true],
];

test('hosts.toml: no mirrors → empty', (t) => {
  t.is(hostsToml(set([], false, 'registry.access.redhat.com/ubi9'), creds), '');
});

test('hosts.toml: one mirror, digest-only, tags, NeverContactSource', (t) => {
  t.is(hostsToml(set([['example.io/example', false]]), creds), one('["pull"]'));
  t.is(hostsToml(set([['example.io/example', true]]), creds), one('["pull", "resolve"]'));
  t.is(
    hostsToml(set([['example.io/example', false]], true), creds),
    one('["pull"]', 'https://example.io/v2/example'),
  );
});

test('hosts.toml: three mirrors with pull-secret headers, Allow and Never', (t) => {
  t.is(hostsToml(set(three), creds), `server = "https://registry.access.redhat.com/v2"\n\n${THREE_TAIL}`);
  // example.io has no credentials, so the Never variant is identical except for server.
  t.is(hostsToml(set(three, true), creds), `server = "https://example.io/v2/example"\n\n${THREE_TAIL}`);
});

// Deliberate fix: with NeverContactSource, `server` is a mirror; its credentials also go at top level.
test('hosts.toml: a NeverContactSource server with credentials gets a top-level header', (t) => {
  const text = hostsToml(set([['mirror.example.com/redhat', false]], true), creds);
  t.is(
    text,
    `server = "https://mirror.example.com/v2/redhat"

override_path = true

[header]
  authorization = "Basic dXNlcjpwYXNz"

[host."https://mirror.example.com/v2/redhat"]
  capabilities = ["pull"]
  override_path = true
  [host."https://mirror.example.com/v2/redhat".header]
    authorization = "Basic dXNlcjpwYXNz"
`,
  );
  t.false(hostsToml(set([['mirror.example.com/redhat', false]]), creds).includes('\n[header]'));
});

test('hosts.toml: every output is TOML with the intended structure (smol-toml)', (t) => {
  const doc = parse(hostsToml(set(three, true), creds)) as {
    server: string;
    override_path: boolean;
    host: Record<string, unknown>;
  };
  t.is(doc.server, 'https://example.io/v2/example');
  t.is(doc.override_path, true);
  t.deepEqual(Object.keys(doc.host), [
    'https://example.io/v2/example',
    'https://mirror.example.com/v2/redhat',
    'https://mirror.example.net/v2',
  ]);
  t.deepEqual(doc.host['https://mirror.example.net/v2'], {
    capabilities: ['pull', 'resolve'],
    override_path: true,
    header: { authorization: 'Basic dXNlcm5hbWU6cGFzc3dvcmQ=' },
  });
});

test('hosts.toml files: host:port sources go in host_port_ directories (deliberate fix)', (t) => {
  t.is(registryHostDirectory('quay.io'), 'quay.io');
  t.is(registryHostDirectory('127.0.0.1:5000'), '127.0.0.1_5000_');
  const files = hostsTomlFiles([
    set([['mirror.example.net', true]], false, 'registry.local:5000'),
    set([['m.io/x', false]]),
  ]);
  t.deepEqual(
    files.map((f) => [f.source, f.directory]),
    [
      ['registry.local:5000', 'registry.local_5000_'],
      [R, R],
    ],
  );
  t.true(files[0]!.content.startsWith('server = "https://registry.local:5000/v2"\n'));
});

test('hosts.toml: unsafe names are errors, not files', (t) => {
  t.throws(() => hostsTomlFiles([set([['m.io', false]], false, '../etc')]), {
    message: /not a registry host/,
  });
  t.throws(() => hostsToml(set([['m.io/a"b', false]])), { message: /mirror "m.io\/a"b"/ });
  t.throws(() => hostsToml(set([['m.io/../x', false]])), { message: /not a registry host/ });
});

test('pull secret: auth or username/password; malformed is an error', (t) => {
  t.is(
    parsePullSecret('{"auths":{"r.io":{"username":"u","password":"p"}}}').get('r.io'),
    Buffer.from('u:p').toString('base64'),
  );
  t.throws(() => parsePullSecret('{'), { message: /not JSON/ });
  t.throws(() => parsePullSecret('{"x":1}'), { message: /no "auths"/ });
  t.throws(() => parsePullSecret('{"auths":{"r.io":{}}}'), { message: /"r.io" has neither/ });
});
