import type { ExecutionContext } from 'ava';
import { z } from 'zod';
import { parseAuthorizedKey } from '../../desired/authorized-key.js';
import { buildUserData } from '../../desired/user-data.js';
import { UserDataFormat } from '../../provider/capabilities/user-data-format.js';
import { sshPublicKeyFixtures } from '../ssh-key-fixtures.js';
import { assertPowerShell, assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const schema = z.object({
  extraSteps: z.array(z.string().min(1)),
  wrap: z.custom<(s: string) => string>((v) => typeof v === 'function', 'wrap must be a function'),
});

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The script before wrapping: the common script plus the platform's extra steps. */
function unwrapped(format: UserDataFormat, keyText: string): string {
  return buildUserData(parseAuthorizedKey(keyText), { extraSteps: format.extraSteps, wrap: (s) => s });
}

function firstKey(): string {
  const [first] = sshPublicKeyFixtures();
  if (!first) throw new Error('no key fixtures');
  return first.authorizedKey;
}

function carriesEachKeyOnce(t: ExecutionContext, format: UserDataFormat): void {
  for (const fixture of sshPublicKeyFixtures()) {
    const key = parseAuthorizedKey(fixture.authorizedKey);
    const userData = buildUserData(key, format);
    t.is(occurrences(userData, key.line), 1, `the ${fixture.kind} key line must appear exactly once`);
    t.false(userData.includes(fixture.comment), `the ${fixture.kind} key comment must be dropped`);
  }
}

export const userDataFormatContract = capabilityContract<UserDataFormat>({
  capability: UserDataFormat,
  name: 'UserDataFormat',
  snapshot: (format) =>
    plain({
      extraSteps: format.extraSteps,
      wrapped: format.wrap("Write-Output 'contract'\n"),
      userData: buildUserData(parseAuthorizedKey(firstKey()), format),
    }),
  checks: [
    { name: 'shape', run: (t, format) => assertShape(t, schema, format) },
    {
      name: 'every extra step parses as PowerShell',
      run: (t, format) => {
        format.extraSteps.forEach((step, i) => assertPowerShell(t, `extra step ${i + 1}`, step));
        t.pass();
      },
    },
    {
      name: 'the user-data script parses as PowerShell',
      run: (t, format) =>
        assertPowerShell(t, 'the unwrapped user-data script', unwrapped(format, firstKey())),
    },
    {
      name: 'wrapping keeps the script verbatim, once',
      run: (t, format) => {
        const script = unwrapped(format, firstKey());
        t.is(occurrences(format.wrap(script), script), 1, 'the wrapped user data must hold the script once');
      },
    },
    { name: 'carries the public key exactly once, for each key type', run: carriesEachKeyOnce },
  ],
});
