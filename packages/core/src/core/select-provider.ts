import type { WmcoProvider } from '../provider/define-provider.js';
import { DuplicateProviderError, PlatformConflictError, UnknownPlatformError } from '../provider/errors.js';

/**
 * Picks the one provider that serves `platform`. Fails for an unknown platform, for a platform two
 * providers claim, and for two providers sharing an id (even when they serve different platforms).
 */
export function selectProvider(providers: readonly WmcoProvider[], platform: string): WmcoProvider {
  const byId = new Map<string, WmcoProvider>();
  for (const p of providers) {
    const other = byId.get(p.id);
    if (other) {
      throw new DuplicateProviderError(
        p.id,
        other.packageName ?? 'given first',
        p.packageName ?? 'given again',
      );
    }
    byId.set(p.id, p);
  }
  const matches = providers.filter((p) => p.platforms.includes(platform));
  const [first, second] = matches;
  if (!first) {
    const served = [...new Set(providers.flatMap((p) => p.platforms))].sort();
    throw new UnknownPlatformError(platform, served);
  }
  if (second)
    throw new PlatformConflictError(
      platform,
      matches.map((p) => p.id),
    );
  return first;
}
