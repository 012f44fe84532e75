import test from 'ava';
import { inject, injectable, newRootContainer } from '../di.js';
import { MachineAccess } from './capabilities/machine-access.js';
import { MetadataRoutes } from './capabilities/metadata-routes.js';
import { defineProvider } from './define-provider.js';
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

test('refuses a wrong contract version and leaves the container untouched', (t) => {
  const c = fresh();
  const p = defineProvider({
    id: 'future',
    platform: 'AWS',
    contractVersion: 99,
    register: (r) => r.useValue(MachineAccess, { sshUser: 'x' }),
  });
  const err = t.throws(() => registerProvider(c, p), { instanceOf: ContractVersionError });
  t.regex(err.message, /provider 'future' declares contract version 99.*supports versions 1/);
  t.false(c.isRegistered(MachineAccess, true));
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
