import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Package names of the cloud SDKs the AWS, Azure and GCP providers use. */
const CLOUD_SDKS = /\/node_modules\/(@aws-sdk|@smithy|@azure|@google-cloud|google-gax|google-auth-library)\//;

/**
 * Loads every built-in provider in a fresh process and lists the files it resolved (module.registerHooks
 * sees both `import` and `require`), so what a provider import costs is measured, not assumed.
 */
async function filesLoadedByProviders(): Promise<string[]> {
  const loader = new URL('./baked-providers.js', import.meta.url).href;
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.push(r.url); return r; } });
    const { loadBuiltinProviders } = await import(${JSON.stringify(loader)});
    const providers = await loadBuiltinProviders();
    process.stdout.write(JSON.stringify({ ids: providers.map((p) => p.id), seen }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  const out = JSON.parse(stdout) as { ids: string[]; seen: string[] };
  if (out.ids.length !== 6) throw new Error(`expected the six built-in providers, got ${out.ids.join(', ')}`);
  return out.seen;
}

test('importing the built-in providers loads no cloud SDK (each is loaded on its first cloud call)', async (t) => {
  const seen = await filesLoadedByProviders();
  // The hook works: the providers' own files were seen.
  t.true(seen.some((u) => u.includes('provider-gcp')));
  t.deepEqual(
    seen.filter((u) => CLOUD_SDKS.test(u)),
    [],
  );
});
