import { fileURLToPath } from 'node:url';

/** The repository root (this file is compiled to packages/packaging/dist/). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
