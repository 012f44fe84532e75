import test from 'ava';
import { MachineAccess } from './capabilities/machine-access.js';
import { PlatformPrerequisites } from './capabilities/platform-prerequisites.js';
import { defineProvider, providerCapabilities, type ProviderSpec } from './define-provider.js';
import { InvalidProviderError } from './errors.js';

const spec = (over: Partial<ProviderSpec>): ProviderSpec => ({
  id: 'example',
  platform: 'AWS',
  contractVersion: 1,
  register: () => undefined,
  ...over,
});

test('accepts kebab-case ids and PascalCase platforms, and fills defaults', (t) => {
  const p = defineProvider(spec({ id: 'my-cloud2', platform: ['KubeVirt', 'BareMetal'] }));
  t.is(p.id, 'my-cloud2');
  t.deepEqual(p.platforms, ['KubeVirt', 'BareMetal']);
  t.is(p.displayName, 'my-cloud2');
  t.is(p.packageName, undefined);
  t.true(Object.isFrozen(p));
  t.true(Object.isFrozen(p.platforms));
});

for (const id of ['', 'AWS', 'my_cloud', 'my--cloud', '-x', 'x-', '1cloud', 'my cloud']) {
  test(`refuses the id ${JSON.stringify(id)}`, (t) => {
    t.throws(() => defineProvider(spec({ id })), { instanceOf: InvalidProviderError, message: /kebab-case/ });
  });
}

for (const platform of ['aws', 'A', 'Open Stack', 'Kube-Virt', '']) {
  test(`refuses the platform name ${JSON.stringify(platform)}`, (t) => {
    const err = t.throws(() => defineProvider(spec({ platform })), { instanceOf: InvalidProviderError });
    t.regex(err.message, /^provider 'example': platform names must be PascalCase/);
  });
}

test('refuses a provider serving no platform or one platform twice', (t) => {
  t.throws(() => defineProvider(spec({ platform: [] })), { message: /serves no platform/ });
  t.throws(() => defineProvider(spec({ platform: ['AWS', 'AWS'] })), { message: /lists a platform twice/ });
});

test('refuses a provider without a register function (JavaScript callers)', (t) => {
  const bad = { ...spec({}), register: 'nope' } as unknown as ProviderSpec;
  t.throws(() => defineProvider(bad), {
    instanceOf: InvalidProviderError,
    message: /register must be a function/,
  });
});

test('register keeps its object as this', (t) => {
  const p = defineProvider({
    ...spec({}),
    user: 'Administrator',
    register(r) {
      r.useValue(MachineAccess, { sshUser: (this as unknown as { user: string }).user });
    },
  } as ProviderSpec);
  t.deepEqual(providerCapabilities(p), ['platform.machine-access']);
});

test('providerCapabilities lists token ids in registration order without a container', (t) => {
  const p = defineProvider(
    spec({
      register(r) {
        r.useValue(PlatformPrerequisites, { supportedBuilds: [], customVxlanPortRequired: false, notes: [] });
        r.useValue(MachineAccess, { sshUser: 'x' });
      },
    }),
  );
  t.deepEqual(providerCapabilities(p), ['platform.platform-prerequisites', 'platform.machine-access']);
});

test('refuses a contractVersion that is neither a semver range nor a major version number', (t) => {
  for (const contractVersion of ['soon', '', 1.5, -1]) {
    t.throws(() => defineProvider(spec({ contractVersion })), {
      instanceOf: InvalidProviderError,
      message: /contractVersion must be a semver range such as '\^1\.0\.0' or a major version number/,
    });
  }
  t.is(defineProvider(spec({ contractVersion: '^1.0.0' })).contractVersion, '^1.0.0');
  t.is(defineProvider(spec({ contractVersion: 1 })).contractVersion, '^1.0.0');
});
