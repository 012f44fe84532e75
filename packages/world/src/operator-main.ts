import { fileURLToPath } from 'node:url';

/** The path of the built `wmco` CLI (`@wmco/operator`'s dist/main.js), for tests and benchmarks that spawn it. */
export const OPERATOR_MAIN: string = fileURLToPath(new URL('main.js', import.meta.resolve('@wmco/operator')));
