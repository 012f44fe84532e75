import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InvalidProviderError, type WmcoProvider } from '@wmco/core/provider';
import {
  BUILTIN_PROVIDER_IDS,
  BUILTIN_PROVIDER_LOADERS,
  BUILTIN_PROVIDER_PACKAGES,
  isBuiltinProviderId,
  type BuiltinProviderId,
  type ProviderLoader,
} from './builtin-providers.js';

/**
 * The list of built-in providers this build contains: packages/operator/baked-providers.json, all six in
 * a checkout, rewritten by scripts/select-providers.mjs when an image is built with `PROVIDERS`.
 */
export const BAKED_PROVIDERS_FILE = fileURLToPath(new URL('../../baked-providers.json', import.meta.url));

export class BakedProvidersError extends Error {
  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'BakedProvidersError';
  }
}

/** Validates the file's `{ "providers": [ids] }`: known ids, at least one, no repeats. */
export function parseBakedProviders(text: string, source: string): BuiltinProviderId[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new BakedProvidersError(source, `not valid JSON (${(err as Error).message})`);
  }
  const list = (parsed as { providers?: unknown } | null)?.providers;
  if (!Array.isArray(list) || list.length === 0) {
    throw new BakedProvidersError(source, 'expected {"providers": [...]} with at least one provider id');
  }
  const ids = list.map((id) => {
    if (typeof id !== 'string' || !isBuiltinProviderId(id)) {
      throw new BakedProvidersError(
        source,
        `unknown provider ${JSON.stringify(id)}; known: ${BUILTIN_PROVIDER_IDS.join(', ')}`,
      );
    }
    return id;
  });
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new BakedProvidersError(source, `provider "${repeated}" is listed twice`);
  return ids;
}

/** Imports the named built-in providers; a package missing from this build is a clear error. */
export async function loadBuiltinProviders(
  ids: readonly BuiltinProviderId[] = BUILTIN_PROVIDER_IDS,
  loaders: Readonly<Record<BuiltinProviderId, ProviderLoader>> = BUILTIN_PROVIDER_LOADERS,
): Promise<WmcoProvider[]> {
  return Promise.all(
    ids.map(async (id) => {
      try {
        return await loaders[id]();
      } catch (err) {
        const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
        throw new InvalidProviderError(
          id,
          `${BUILTIN_PROVIDER_PACKAGES[id]} is listed in baked-providers.json but cannot be loaded (${why}); ` +
            'rebuild the image with this provider in PROVIDERS',
        );
      }
    }),
  );
}

/** The built-in providers of this build, as listed in `file`. */
export async function loadBakedProviders(file: string = BAKED_PROVIDERS_FILE): Promise<WmcoProvider[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new BakedProvidersError(
      file,
      `cannot read the list of built-in providers (${(err as Error).message})`,
    );
  }
  return loadBuiltinProviders(parseBakedProviders(text, file));
}
