import test from 'ava';
import { buildUserData } from '@wmco/core';
import { parseAuthorizedKey } from '@wmco/core';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { bootFromUserData } from './user-data-boot.js';

// The operator's own renderer produces the scripts; the providers' wraps are restated here (the sim
// does not depend on provider packages); the operator's machines tests run every provider's format.
const key = parseAuthorizedKey(generateEd25519KeyPair().public);
const tagged = {
  extraSteps: [],
  wrap: (s: string) => `<powershell>${s}</powershell>\n<persist>true</persist>\n`,
};
const raw = { extraSteps: [], wrap: (s: string) => s };

test('the rendered user data opens sshd and authorizes exactly the operator key', (t) => {
  const boot = bootFromUserData('VSphere', buildUserData(key, tagged));
  t.true(boot.sshd);
  t.is(boot.authorizedKey, key.line);
  t.deepEqual(boot.problems, []);
  t.false(boot.metadataRoutesPersistent);
});

test('GCP runs the script raw; tags there are a PowerShell parse error and nothing runs', (t) => {
  t.true(bootFromUserData('GCP', buildUserData(key, raw)).sshd);
  const tags = bootFromUserData('GCP', buildUserData(key, tagged));
  t.false(tags.sshd);
  t.is(tags.authorizedKey, undefined);
  t.regex(tags.problems[0] ?? '', /ParserError/);
});

test('without <powershell> tags the agent runs nothing', (t) => {
  const boot = bootFromUserData('Nutanix', buildUserData(key, raw));
  t.false(boot.sshd);
  t.is(boot.authorizedKey, undefined);
});

test('missing user data, a missing key line or a missing sshd step each leave the host unusable', (t) => {
  t.false(bootFromUserData('VSphere', undefined).sshd);
  const script = buildUserData(key, tagged);
  const noKey = bootFromUserData('VSphere', script.replace(/^Set-Content -Path \$authorizedKeys.*$/m, ''));
  t.true(noKey.sshd);
  t.is(noKey.authorizedKey, undefined);
  const noStart = bootFromUserData('VSphere', script.replace(/^Start-Service sshd$/m, ''));
  t.false(noStart.sshd);
  t.deepEqual(noStart.problems, ['sshd not started']);
  const other = parseAuthorizedKey(generateEd25519KeyPair().public);
  t.is(bootFromUserData('VSphere', buildUserData(other, tagged)).authorizedKey, other.line);
});

test('AWS: the EC2Launch add-routes --persistent step makes the metadata routes persistent', (t) => {
  const step = '& "$env:ProgramFiles\\Amazon\\EC2Launch\\EC2Launch.exe" run-task add-routes --persistent\n';
  const aws = { extraSteps: [step], wrap: tagged.wrap };
  t.true(bootFromUserData('AWS', buildUserData(key, aws)).metadataRoutesPersistent);
  t.false(bootFromUserData('AWS', buildUserData(key, tagged)).metadataRoutesPersistent);
});

test("KubeVirt's cloudbase-init runs a #ps1_sysnative script; other agents need the tags", (t) => {
  const header = { extraSteps: [], wrap: (s: string) => `#ps1_sysnative\n${s}` };
  const boot = bootFromUserData('KubeVirt', buildUserData(key, header));
  t.true(boot.sshd);
  t.is(boot.authorizedKey, key.line);
  t.true(bootFromUserData('KubeVirt', buildUserData(key, tagged)).sshd, 'tags still work there');
  t.false(bootFromUserData('VSphere', buildUserData(key, header)).sshd);
});
