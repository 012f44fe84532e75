import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidProviderError, type WmcoProvider } from '@wmco/core/provider';

function looksLikeProvider(value: unknown): value is WmcoProvider {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<WmcoProvider>;
  return typeof v.id === 'string' && Array.isArray(v.platforms) && typeof v.register === 'function';
}

function specifierFor(name: string): string {
  if (name.startsWith('.') || isAbsolute(name)) return pathToFileURL(resolve(name)).href;
  return name;
}

/**
 * Loads a third-party provider package by npm name (or by file path) and returns the providers it
 * exports: its default export, and any named export made with `defineProvider`.
 */
export async function loadProviderPackage(name: string): Promise<readonly WmcoProvider[]> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifierFor(name))) as Record<string, unknown>;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new InvalidProviderError(name, `cannot load provider package: ${why}`);
  }
  const found = [...new Set(Object.values(mod).filter(looksLikeProvider))];
  if (found.length === 0) {
    throw new InvalidProviderError(name, 'the package exports no provider made with defineProvider()');
  }
  return found;
}

/** Built-in providers followed by those of each named package, in order. */
export async function loadProviders(
  builtin: readonly WmcoProvider[],
  packages: readonly string[],
): Promise<readonly WmcoProvider[]> {
  const extra = await Promise.all(packages.map((p) => loadProviderPackage(p)));
  return [...builtin, ...extra.flat()];
}
