import { WmcoError } from '../provider/errors.js';

/** An optional peer dependency of @wmco/core that a feature of the test kit needs. */
export interface OptionalPeer {
  /** The npm package name, as the install command needs it. */
  readonly name: string;
  /** What to import: the package itself or one of its files. */
  readonly specifier: string;
}

/** Imports a module by specifier; `(s) => import(s)` outside tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** A feature of @wmco/core/testing was used without the optional peer dependencies it needs. */
export class MissingPeerDependencyError extends WmcoError {
  constructor(
    readonly feature: string,
    readonly packages: readonly string[],
  ) {
    const list = packages.join(' and ');
    super(
      'MissingPeerDependency',
      `${feature} needs ${list}, optional peer dependencies of @wmco/core that are not installed: ` +
        `add them to the devDependencies of the package that runs the tests ` +
        `(pnpm add -D ${packages.join(' ')}; the versions are those of @wmco/core's peerDependencies)`,
    );
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Imports the peers in order. A peer that is not installed gives a MissingPeerDependencyError naming every
 * peer of the feature (returned, not thrown, so that importing the test kit never fails on it: the error
 * is thrown when the feature is used). Any other failure (a broken native build) is thrown as it is.
 */
export async function importOptionalPeers(
  feature: string,
  peers: readonly OptionalPeer[],
  importer: ModuleImporter,
): Promise<unknown[] | MissingPeerDependencyError> {
  const modules: unknown[] = [];
  for (const peer of peers) {
    try {
      modules.push(await importer(peer.specifier));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return new MissingPeerDependencyError(
        feature,
        peers.map((p) => p.name),
      );
    }
  }
  return modules;
}
