import test from 'ava';
import { newRootContainer } from '../di.js';
import { HostRename } from '../provider/capabilities/host-rename.js';
import { MachineAccess } from '../provider/capabilities/machine-access.js';
import { PlatformPrerequisites } from '../provider/capabilities/platform-prerequisites.js';
import { defineProvider, type WmcoProvider } from '../provider/define-provider.js';
import {
  ContractVersionError,
  DuplicateProviderError,
  PlatformConflictError,
  UnknownPlatformError,
} from '../provider/errors.js';
import { WINDOWS_SERVER_2022 } from '../provider/types/windows-build.js';
import { ActivePlatform } from '../core/active-platform.js';
import { createWmcoCore } from './create-wmco-core.js';

const prereqs: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2022],
  customVxlanPortRequired: false,
  notes: [],
};

function provider(
  id: string,
  platform: string | string[],
  sshUser = 'Administrator',
  pkg?: string,
): WmcoProvider {
  return defineProvider({
    id,
    platform,
    contractVersion: 1,
    ...(pkg === undefined ? {} : { packageName: pkg }),
    register(r) {
      r.useValue(MachineAccess, { sshUser });
      r.useValue(PlatformPrerequisites, prereqs);
    },
  });
}

const providers = [
  provider('alpha', 'AWS', 'Administrator'),
  provider('beta', 'Azure', 'capi'),
  provider('gamma', ['None', 'BareMetal']),
];

test('selects the provider serving the platform and wires only its capabilities', (t) => {
  const core = createWmcoCore({ parent: newRootContainer(), providers, platform: 'Azure' });
  t.is(core.provider.id, 'beta');
  t.is(core.platform, 'Azure');
  t.deepEqual(core.capabilities, ['platform.machine-access', 'platform.platform-prerequisites']);
  t.is(core.resolve(MachineAccess).sshUser, 'capi');
  t.deepEqual(core.resolve(ActivePlatform), { platform: 'Azure', providerId: 'beta' });
});

test('a provider serving two platforms is chosen for either', (t) => {
  for (const platform of ['None', 'BareMetal']) {
    t.is(createWmcoCore({ parent: newRootContainer(), providers, platform }).provider.id, 'gamma');
  }
});

test('tryResolve gives undefined for a capability the platform lacks, the instance otherwise', (t) => {
  const core = createWmcoCore({ parent: newRootContainer(), providers, platform: 'AWS' });
  t.is(core.tryResolve(HostRename), undefined);
  t.is(core.tryResolve(MachineAccess)?.sshUser, 'Administrator');
});

test('works in a child container: the parent stays untouched', (t) => {
  const parent = newRootContainer();
  const core = createWmcoCore({ parent, providers, platform: 'AWS' });
  t.not(core.container, parent);
  t.false(parent.isRegistered(MachineAccess, true));
  t.true(core.container.isRegistered(MachineAccess, true));
});

test('two cores side by side in one parent do not interfere', (t) => {
  const parent = newRootContainer();
  const aws = createWmcoCore({ parent, providers, platform: 'AWS' });
  const azure = createWmcoCore({ parent, providers, platform: 'Azure' });
  t.is(aws.resolve(MachineAccess).sshUser, 'Administrator');
  t.is(azure.resolve(MachineAccess).sshUser, 'capi');
});

test('an unknown platform fails with UnknownPlatformError listing what is served', (t) => {
  const err = t.throws(
    () => createWmcoCore({ parent: newRootContainer(), providers, platform: 'OpenStack' }),
    {
      instanceOf: UnknownPlatformError,
    },
  );
  t.is(
    err.message,
    "no provider serves platform 'OpenStack'; the providers given serve: AWS, Azure, BareMetal, None",
  );
  t.is(err.code, 'UnknownPlatform');
});

test('no providers at all is an unknown platform too', (t) => {
  t.throws(() => createWmcoCore({ parent: newRootContainer(), providers: [], platform: 'AWS' }), {
    instanceOf: UnknownPlatformError,
    message: /serve: \(none\)/,
  });
});

test('two providers for one platform fail with PlatformConflictError naming both', (t) => {
  const clash = [...providers, provider('aws-fork', 'AWS', 'Administrator', '@someone/wmco-aws')];
  const err = t.throws(
    () => createWmcoCore({ parent: newRootContainer(), providers: clash, platform: 'AWS' }),
    {
      instanceOf: PlatformConflictError,
    },
  );
  t.is(
    err.message,
    "platform 'AWS' is served by more than one provider: 'alpha' and 'aws-fork'; pass only one",
  );
});

test('two providers sharing an id are refused, whatever platform is asked for', (t) => {
  const clash = [...providers, provider('alpha', 'GCP', 'Administrator', '@someone/alpha')];
  t.throws(() => createWmcoCore({ parent: newRootContainer(), providers: clash, platform: 'Azure' }), {
    instanceOf: DuplicateProviderError,
    message: /provider 'alpha'.*@someone\/alpha/,
  });
});

test('dispose releases the child container', async (t) => {
  const core = createWmcoCore({ parent: newRootContainer(), providers, platform: 'AWS' });
  await core.dispose();
  t.throws(() => core.resolve(MachineAccess));
});

test('a selected provider with a wrong contract version is refused', (t) => {
  const future = defineProvider({
    id: 'future',
    platform: 'GCP',
    contractVersion: 2,
    register: () => undefined,
  });
  t.throws(
    () => createWmcoCore({ parent: newRootContainer(), providers: [...providers, future], platform: 'GCP' }),
    {
      instanceOf: ContractVersionError,
      message:
        /^provider 'future' supports provider contract \^2\.0\.0, but this @wmco\/core implements contract 1\.0\.0: /,
    },
  );
});
