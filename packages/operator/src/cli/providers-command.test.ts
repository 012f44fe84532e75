import test from 'ava';
import { newRootContainer } from '@wmco/core';
import { CONTRACT_VERSION, InvalidProviderError } from '@wmco/core/provider';
import { loadBuiltinProviders } from '../providers/baked-providers.js';
import type { CliContext } from './cli-context.js';
import { buildProgram } from './program.js';

interface Listing {
  contractVersion: string;
  providers: {
    id: string;
    platforms: string[];
    package: string;
    contractVersion: string;
    capabilities: string[];
  }[];
}

async function run(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: await loadBuiltinProviders(),
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env,
  };
  const program = (await buildProgram(ctx)).exitOverride();
  for (const command of program.commands) command.exitOverride();
  await program.parseAsync([...args], { from: 'user' });
  return { out, err };
}

const BUILTIN_CAPABILITIES: Record<string, string[]> = {
  aws: [
    'machine-access',
    'user-data-format',
    'hostname-override',
    'image-credential-provider',
    'metadata-routes',
    'platform-prerequisites',
    'instance-identity',
    'instance-tagging',
    'firewall-facts',
  ],
  azure: [
    'machine-access',
    'user-data-format',
    'cloud-node-manager',
    'platform-prerequisites',
    'instance-identity',
    'instance-tagging',
  ],
  gcp: [
    'machine-access',
    'user-data-format',
    'hostname-override',
    'platform-prerequisites',
    'instance-identity',
    'instance-tagging',
    'firewall-facts',
  ],
  vsphere: [
    'machine-access',
    'user-data-format',
    'hostname-override',
    'host-rename',
    'platform-prerequisites',
  ],
  nutanix: ['machine-access', 'user-data-format', 'host-rename', 'platform-prerequisites'],
  none: ['platform-prerequisites'],
};

test('lists the six built-in providers and a third-party package with their capabilities', async (t) => {
  const { out } = await run([
    'providers',
    '--provider-package',
    '@wmco/provider-kubevirt-example',
    '-o',
    'json',
  ]);
  const listing = JSON.parse(out.join('\n')) as Listing;
  t.is(listing.contractVersion, CONTRACT_VERSION);
  t.true(listing.providers.every((p) => p.contractVersion === '^1.0.0'));
  t.deepEqual(
    listing.providers.map((p) => p.id),
    ['aws', 'azure', 'gcp', 'vsphere', 'nutanix', 'none', 'kubevirt'],
  );
  const capabilities = Object.fromEntries(listing.providers.map((p) => [p.id, p.capabilities]));
  t.deepEqual(capabilities, {
    ...BUILTIN_CAPABILITIES,
    kubevirt: ['machine-access', 'user-data-format', 'platform-prerequisites'],
  });
  const kubevirt = listing.providers.find((p) => p.id === 'kubevirt');
  t.deepEqual(kubevirt?.platforms, ['KubeVirt']);
  t.is(kubevirt?.package, '@wmco/provider-kubevirt-example');
});

test('without extra packages it lists the six built-ins, platforms included', async (t) => {
  const { out } = await run(['providers', '-o', 'json']);
  const listing = JSON.parse(out.join('\n')) as Listing;
  t.deepEqual(
    listing.providers.map((p) => [p.id, p.platforms.join(',')]),
    [
      ['aws', 'AWS'],
      ['azure', 'Azure'],
      ['gcp', 'GCP'],
      ['vsphere', 'VSphere'],
      ['nutanix', 'Nutanix'],
      ['none', 'None,BareMetal'],
    ],
  );
});

test('WMCO_PROVIDER_PACKAGES names third-party packages too, and the table shows them', async (t) => {
  const { out } = await run(['providers'], { WMCO_PROVIDER_PACKAGES: '@wmco/provider-kubevirt-example' });
  const lines = out.join('\n').split('\n');
  t.regex(lines[0]!, /^PROVIDER\s+PLATFORMS\s+CONTRACT\s+CAPABILITIES$/);
  t.is(lines.length, 8);
  t.regex(
    lines[7]!,
    /^kubevirt\s+KubeVirt\s+\^1\.0\.0\s+machine-access, user-data-format, platform-prerequisites$/,
  );
});

test('a package that does not exist gives a clear error naming it', async (t) => {
  const err = await t.throwsAsync(
    run(['providers', '--provider-package', '@wmco/no-such-provider', '-o', 'json']),
    {
      instanceOf: InvalidProviderError,
    },
  );
  t.regex(err.message, /^provider '@wmco\/no-such-provider': cannot load provider package: /);
  t.regex(err.message, /Cannot find package '@wmco\/no-such-provider'/);
});

test('a package that exports no provider is refused', async (t) => {
  await t.throwsAsync(run(['providers', '--provider-package', 'yaml']), {
    instanceOf: InvalidProviderError,
    message: "provider 'yaml': the package exports no provider made with defineProvider()",
  });
});
