import test from 'ava';
import { inject, injectable, newRootContainer } from '../di.js';
import { MachineAccess } from './capabilities/machine-access.js';
import { MetadataRoutes } from './capabilities/metadata-routes.js';
import { defineProvider } from './define-provider.js';
import { CONTRACT_VERSION } from './contract-version.js';
import { ContractVersionError, DuplicateCapabilityError, DuplicateProviderError } from './errors.js';
import { registerProvider } from './register-provider.js';

// A fresh child per test: ava runs a file's tests concurrently (STYLE §6).
const fresh = newRootContainer;

const routes = { routes: () => [{ destinationPrefix: '169.254.169.254/32', description: 'metadata' }] };

test('registers capabilities and resolves them', (t) => {
  const c = fresh();
  const p = defineProvider({
    id: 'alpha',
    platform: 'AWS',
    contractVersion: 1,
    register: (r) => r.useValue(MachineAccess, { sshUser: 'Administrator' }),
  });
  const reg = registerProvider(c, p);
  t.deepEqual(reg.capabilities, ['platform.machine-access']);
  t.is(c.resolve<MachineAccess>(MachineAccess).sshUser, 'Administrator');
});

test('a class capability gets its dependencies through @inject, one instance per container', (t) => {
  @injectable()
  class RoutesFromAccess {
    constructor(@inject(MachineAccess) readonly access: MachineAccess) {}
    routes(): ReturnType<typeof routes.routes> {
      return routes.routes();
    }
  }
  const c = fresh();
  registerProvider(
    c,
    defineProvider({
      id: 'beta',
      platform: 'GCP',
      contractVersion: 1,
      register(r) {
        r.useValue(MachineAccess, { sshUser: 'Administrator' });
        r.useClass(MetadataRoutes, RoutesFromAccess);
      },
    }),
  );
  const a = c.resolve<MetadataRoutes>(MetadataRoutes) as RoutesFromAccess;
  t.is(a.access.sshUser, 'Administrator');
  t.is(c.resolve<MetadataRoutes>(MetadataRoutes), a);
});

test('refuses a provider whose contract range excludes this core, naming both, and changes nothing', (t) => {
  const c = fresh();
  const p = defineProvider({
    id: 'future',
    platform: 'AWS',
    contractVersion: '^2.0.0',
    packageName: '@example/wmco-provider-future',
    register: (r) => r.useValue(MachineAccess, { sshUser: 'x' }),
  });
  const err = t.throws(() => registerProvider(c, p), { instanceOf: ContractVersionError });
  t.is(err.code, 'ContractVersion');
  t.is(
    err.message,
    "provider 'future' (@example/wmco-provider-future) supports provider contract ^2.0.0, but this " +
      `@wmco/core implements contract ${CONTRACT_VERSION}: use a release of the provider that supports ` +
      'contract 1.x, or a @wmco/core whose contract version is in ^2.0.0 ' +
      '(@wmco/core\'s CONTRACT.md, "Versioning")',
  );
  t.false(c.isRegistered(MachineAccess, true));
});

test('a major version number N stands for ^N.0.0: 1 is accepted, 99 refused', (t) => {
  const make = (id: string, contractVersion: number): ReturnType<typeof defineProvider> =>
    defineProvider({ id, platform: 'AWS', contractVersion, register: () => undefined });
  t.notThrows(() => registerProvider(fresh(), make('current', 1)));
  const err = t.throws(() => registerProvider(fresh(), make('future', 99)), {
    instanceOf: ContractVersionError,
  });
  t.regex(
    err.message,
    /^provider 'future' supports provider contract \^99\.0\.0, but this @wmco\/core implements/,
  );
});

test('a range that needs a later minor than this core implements is refused', (t) => {
  const [major, minor] = CONTRACT_VERSION.split('.').map(Number) as [number, number];
  const p = defineProvider({
    id: 'newer',
    platform: 'AWS',
    contractVersion: `^${major}.${minor + 1}.0`,
    register: () => undefined,
  });
  t.throws(() => registerProvider(fresh(), p), { instanceOf: ContractVersionError });
});

test('a provider that was not made by defineProvider and declares no range is refused, not registered', (t) => {
  const c = fresh();
  const raw = {
    ...defineProvider({ id: 'raw', platform: 'AWS', contractVersion: 1, register: () => undefined }),
  };
  const err = t.throws(() => registerProvider(c, { ...raw, contractVersion: 'soon' }), {
    instanceOf: ContractVersionError,
  });
  t.regex(err.message, /provider 'raw' declares contractVersion 'soon', which is neither a semver range/);
});

test('refuses a second provider with the same id, naming both', (t) => {
  const c = fresh();
  const make = (pkg: string) =>
    defineProvider({
      id: 'same',
      platform: 'AWS',
      contractVersion: 1,
      packageName: pkg,
      register: () => undefined,
    });
  registerProvider(c, make('@one/pkg'));
  const err = t.throws(() => registerProvider(c, make('@two/pkg')), { instanceOf: DuplicateProviderError });
  t.regex(err.message, /@one\/pkg/);
  t.regex(err.message, /@two\/pkg/);
});

test('refuses a capability registered twice, naming both providers', (t) => {
  const c = fresh();
  const make = (id: string) =>
    defineProvider({
      id,
      platform: 'AWS',
      contractVersion: 1,
      register: (r) => r.useValue(MachineAccess, { sshUser: id }),
    });
  registerProvider(c, make('first'));
  const err = t.throws(() => registerProvider(c, make('second')), { instanceOf: DuplicateCapabilityError });
  t.regex(err.message, /platform\.machine-access.*'first'.*'second'/);
  t.is(c.resolve<MachineAccess>(MachineAccess).sshUser, 'first');
});
