import test from 'ava';
import type { UserDataFormat } from '../provider/capabilities/user-data-format.js';
import { powershellSyntaxErrors } from '../testing/powershell-syntax.js';
import { sshPublicKeyFixtures } from '../testing/ssh-key-fixtures.js';
import { parseAuthorizedKey } from './authorized-key.js';
import { buildUserData } from './user-data.js';

const tags: UserDataFormat = {
  extraSteps: [],
  wrap: (s) => `<powershell>${s}</powershell>\n<persist>true</persist>\n`,
};
const raw: UserDataFormat = { extraSteps: [], wrap: (s) => s };
const keys = sshPublicKeyFixtures().map((f) => parseAuthorizedKey(f.authorizedKey));
const count = (s: string, needle: string): number => s.split(needle).length - 1;

test('carries each key line exactly once, in the authorized keys file', (t) => {
  for (const key of keys) {
    const userData = buildUserData(key, raw);
    t.is(count(userData, key.line), 1);
    t.true(userData.includes(`Set-Content -Path $authorizedKeys -Value '${key.line}' -Encoding ascii`));
  }
});

test('the common script parses as PowerShell', (t) => {
  t.deepEqual(powershellSyntaxErrors(buildUserData(keys[0]!, raw)), []);
});

test('follows the upstream order: admin user, OpenSSH, firewall, sshd, key, restart', (t) => {
  const s = buildUserData(keys[0]!, raw);
  const marks = [
    "Get-LocalUser -Name 'capi'",
    "Add-WindowsCapability -Online -Name 'OpenSSH.Server~~~~0.0.1.0'",
    '-LocalPort 10250',
    '-LocalPort 9182',
    "Set-Service -Name sshd -StartupType 'Automatic'",
    "'PasswordAuthentication no'",
    keys[0]!.line,
    'Restart-Service sshd',
  ].map((m) => s.indexOf(m));
  t.false(marks.includes(-1));
  t.deepEqual(
    [...marks].sort((a, b) => a - b),
    marks,
  );
});

test('appends extra steps in order, each on its own line, after the common script', (t) => {
  const format: UserDataFormat = {
    extraSteps: ["Write-Output 'one'", "Write-Output 'two'\n"],
    wrap: (s) => s,
  };
  const s = buildUserData(keys[0]!, format);
  t.true(s.endsWith("Restart-Service sshd\nWrite-Output 'one'\nWrite-Output 'two'\n"));
});

test('wraps the whole script as the format says', (t) => {
  const s = buildUserData(keys[0]!, tags);
  t.true(s.startsWith('<powershell>function Get-RandomPassword {'));
  t.true(s.endsWith('Restart-Service sshd\n</powershell>\n<persist>true</persist>\n'));
});

test('is deterministic: same inputs, same bytes; another key, other bytes', (t) => {
  t.is(
    buildUserData(keys[0]!, tags),
    buildUserData(parseAuthorizedKey(`${keys[0]!.line} other comment`), tags),
  );
  t.not(buildUserData(keys[0]!, tags), buildUserData(keys[1]!, tags));
});

test("opens the OpenSSH rule on every firewall profile, as upstream's user data does (Windows Server 2025 too)", (t) => {
  const s = buildUserData(keys[0]!, raw);
  t.regex(s, /^Set-NetFirewallRule -Name 'OpenSSH-Server-In-TCP' -Enabled True -Profile Any$/m);
  t.true(s.indexOf('-Profile Any') < s.indexOf('Start-Service sshd'), 'before sshd starts');
});
