import { OPERATOR_NODE_FLAGS } from '@wmco/operator';

/**
 * `--operator-node-options` of `pnpm bench join`, `scale` and `fleet`: the operator process's node flags,
 * split at spaces; without the option, the image entrypoint's (OPERATOR_NODE_FLAGS). An empty value runs
 * the operator with no flags.
 */
export function operatorNodeOptions(raw: string | undefined): string[] {
  return raw === undefined ? [...OPERATOR_NODE_FLAGS] : raw.split(' ').filter((f) => f !== '');
}
