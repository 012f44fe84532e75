import { Command } from 'commander';
// The contract version alone (not the whole provider entry): `wmco version` starts without loading zod.
import { CONTRACT_VERSION } from '@wmco/core/contract-version';
import type { CliContext } from './cli-context.js';
import { parseOutputFormat, renderStructured } from './output-format.js';
import { outputOption } from './output-option.js';
import { WMCO_VERSION } from './wmco-version.js';

export { WMCO_VERSION };

export function versionCommand(ctx: CliContext): Command {
  return new Command('version')
    .description('Print the wmco version, the provider contract version and the Node.js runtime')
    .addOption(outputOption(['json', 'yaml'], 'text'))
    .action((opts: { output?: string }) => {
      const info = { wmcoVersion: WMCO_VERSION, contractVersion: CONTRACT_VERSION, node: process.version };
      const format = opts.output === undefined ? undefined : parseOutputFormat(opts.output);
      if (format === 'json' || format === 'yaml') return ctx.stdout(renderStructured(format, info));
      ctx.stdout(
        `wmco version: "${WMCO_VERSION}", contract version: "${CONTRACT_VERSION}", node version: "${process.version}"`,
      );
    });
}
