import { Command } from 'commander';
import { CONTRACT_VERSION } from '@wmco/core/provider';
import type { CliContext } from './cli-context.js';
import { parseOutputFormat, renderStructured } from './output-format.js';

/** The operator version: the services ConfigMap name and the nodes' version annotation carry it. */
export const WMCO_VERSION = '0.1.0';

export function versionCommand(ctx: CliContext): Command {
  return new Command('version')
    .description('Print the wmco version, the provider contract version and the Node.js runtime')
    .option('-o, --output <format>', 'json or yaml')
    .action((opts: { output?: string }) => {
      const info = { wmcoVersion: WMCO_VERSION, contractVersion: CONTRACT_VERSION, node: process.version };
      const format = opts.output === undefined ? undefined : parseOutputFormat(opts.output);
      if (format === 'json' || format === 'yaml') return ctx.stdout(renderStructured(format, info));
      ctx.stdout(
        `wmco version: "${WMCO_VERSION}", contract version: "${CONTRACT_VERSION}", node version: "${process.version}"`,
      );
    });
}
