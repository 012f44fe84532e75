import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import type { UserDataFormat } from '../provider/capabilities/user-data-format.js';
import { parseAuthorizedKey } from './authorized-key.js';
import { powershellSyntaxErrors } from '../testing/powershell-syntax.js';
import { buildUserData } from './user-data.js';

function ed25519Line(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const name = Buffer.from('ssh-ed25519');
  const blob = Buffer.concat([Buffer.from([0, 0, 0, name.length]), name, Buffer.from([0, 0, 0, 32]), raw]);
  return `ssh-ed25519 ${blob.toString('base64')} someone@example`;
}

// Fakes shaped like the platforms' formats: tags (processTags for non-GCP) and raw (GCP) plus extra steps.
const tags: UserDataFormat = {
  extraSteps: [],
  wrap: (s) => `<powershell>${s}</powershell>\n<persist>true</persist>\n`,
};
const raw: UserDataFormat = { extraSteps: ["Write-Output 'platform step'"], wrap: (s) => s };

test('user data: processTags vectors through the UserDataFormat seam', (t) => {
  t.is(raw.wrap('gcp-user-data'), 'gcp-user-data');
  t.is(
    tags.wrap('default-user-data'),
    '<powershell>default-user-data</powershell>\n<persist>true</persist>\n',
  );
});

test('user data: the script installs the key and parses as PowerShell', (t) => {
  const key = parseAuthorizedKey(ed25519Line());
  const wrapped = buildUserData(key, tags);
  t.true(wrapped.startsWith('<powershell>') && wrapped.endsWith('</powershell>\n<persist>true</persist>\n'));
  const script = buildUserData(key, raw);
  t.true(script.includes(`-Value '${key.line}'`));
  t.true(script.endsWith("Write-Output 'platform step'\n"));
  t.deepEqual(powershellSyntaxErrors(script), []);
  t.is(buildUserData(key, raw), script, 'deterministic');
});
