declare const tokenType: unique symbol;

/**
 * A typed injection token. It is a plain symbol at run time (so tsyringe accepts it as is) and carries the
 * type of what it resolves to at compile time. The interface and its token share a name (STYLE §2).
 */
export type Token<T> = symbol & { readonly [tokenType]?: T };

const PREFIX = 'wmco:';
const TOKEN_ID = /^[a-z][a-z0-9]*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/;

/**
 * Creates the token for `id`, written `'<area>.<kebab-name>'`. `Symbol.for` makes two copies of
 * @wmco/core loaded side by side (a third-party provider with its own install) agree on the same token.
 */
export function token<T>(id: string): Token<T> {
  if (!TOKEN_ID.test(id)) {
    throw new TypeError(
      `token id '${id}' must look like '<area>.<kebab-name>', e.g. 'platform.metadata-routes'`,
    );
  }
  const symbol: Token<T> = Symbol.for(PREFIX + id);
  return symbol;
}

/** The id a token was made with, for messages and listings. */
export function tokenId(t: Token<unknown>): string {
  const description = t.description ?? '';
  return description.startsWith(PREFIX) ? description.slice(PREFIX.length) : description;
}
