import type { ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { z } from 'zod';
import { ImageCredentialProvider } from '../../provider/capabilities/image-credential-provider.js';
import { assertPayload, assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');
const schema = z.object({
  payload: fn,
  rewriteConfig: fn,
  kubeletFlags: fn,
  ignitionConfigPath: z.string().regex(/^\/(?:[^/\0]+\/)*[^/\0]+$/, 'an absolute POSIX file path'),
});

/** A kubelet CredentialProviderConfig as the Linux workers' ignition carries it. */
const SAMPLE_CONFIG = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
  - name: ecr-credential-provider
    matchImages:
      - "*.dkr.ecr.*.amazonaws.com"
    defaultCacheDuration: "12h"
    apiVersion: credentialprovider.kubelet.k8s.io/v1
  - name: second-provider.exe
    matchImages: ["registry.example.com"]
    defaultCacheDuration: "1h"
    apiVersion: credentialprovider.kubelet.k8s.io/v1
`;

function providerNames(config: string): unknown[] {
  const doc = parse(config) as { providers?: { name?: unknown }[] } | null;
  return (doc?.providers ?? []).map((p) => p.name);
}

function rewritesNames(t: ExecutionContext, icp: ImageCredentialProvider): void {
  const once = icp.rewriteConfig(SAMPLE_CONFIG);
  t.deepEqual(providerNames(once), ['ecr-credential-provider.exe', 'second-provider.exe']);
  t.deepEqual(providerNames(icp.rewriteConfig(once)), providerNames(once), 'rewriting twice changes nothing');
  const doc = parse(once) as { kind?: unknown };
  t.is(doc.kind, 'CredentialProviderConfig', 'the rest of the config is kept');
}

export const imageCredentialProviderContract = capabilityContract<ImageCredentialProvider>({
  capability: ImageCredentialProvider,
  name: 'ImageCredentialProvider',
  snapshot: (icp) =>
    plain({
      payload: icp.payload(),
      ignitionConfigPath: icp.ignitionConfigPath,
      rewritten: icp.rewriteConfig(SAMPLE_CONFIG),
      flags: icp.kubeletFlags(),
    }),
  checks: [
    { name: 'shape', run: (t, icp) => assertShape(t, schema, icp) },
    {
      name: 'payload destinations are absolute Windows paths',
      run: (t, icp) => assertPayload(t, icp.payload()),
    },
    { name: 'provider names are rewritten to end in .exe, idempotently', run: rewritesNames },
    {
      name: 'malformed config is refused with an error',
      run: (t, icp) => {
        for (const bad of [
          'providers: [',
          'providers: 42',
          '- just\n- a list',
          'providers:\n  - matchImages: []',
        ]) {
          t.throws(() => icp.rewriteConfig(bad), { instanceOf: Error }, `accepted ${JSON.stringify(bad)}`);
        }
      },
    },
    {
      name: 'kubelet flags are single --name=value arguments',
      run: (t, icp) => {
        const flags = icp.kubeletFlags();
        t.true(flags.length > 0, 'a credential provider needs kubelet flags');
        for (const flag of flags) t.regex(flag, /^--[a-z0-9-]+=\S+$/);
      },
    },
  ],
});
