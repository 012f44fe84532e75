import { Command } from 'commander';
import { CONTRACT_VERSION, registerProvider, type WmcoProvider } from '@wmco/core/provider';
import { loadProviders } from '../providers/load-provider-package.js';
import type { CliContext } from './cli-context.js';
import { parseOutputFormat, renderStructured } from './output-format.js';
import { outputOption } from './output-option.js';
import { collect, providerPackages } from './provider-packages-option.js';
import { renderTable } from './table.js';

interface ProviderListing {
  readonly id: string;
  readonly displayName: string;
  readonly platforms: readonly string[];
  readonly package: string;
  /** The contract range the provider supports, e.g. `^1.0.0`. */
  readonly contractVersion: string;
  readonly capabilities: readonly string[];
}

/** Registers each provider into its own fresh container (the real path) and reports what it registered. */
function listing(ctx: CliContext, provider: WmcoProvider): ProviderListing {
  const registered = registerProvider(ctx.container.createChildContainer(), provider);
  return {
    id: provider.id,
    displayName: provider.displayName,
    platforms: provider.platforms,
    package: provider.packageName ?? '-',
    contractVersion: provider.contractVersion,
    capabilities: registered.capabilities.map((c) => c.replace(/^platform\./, '')),
  };
}

export function providersCommand(ctx: CliContext): Command {
  return new Command('providers')
    .description('List the platform providers this build knows and the capabilities each registers')
    .addOption(outputOption(['table', 'wide', 'json', 'yaml']))
    .option('--provider-package <name>', 'also load a third-party provider package (repeatable)', collect)
    .action(async (opts: { output?: string; providerPackage?: string[] }) => {
      const format = parseOutputFormat(opts.output);
      const providers = await loadProviders(
        ctx.builtinProviders,
        providerPackages(opts.providerPackage, ctx.env),
      );
      const rows = providers.map((p) => listing(ctx, p));
      if (format === 'json' || format === 'yaml') {
        ctx.stdout(renderStructured(format, { contractVersion: CONTRACT_VERSION, providers: rows }));
        return;
      }
      const headers = ['provider', 'platforms', 'contract', 'capabilities'];
      const table = rows.map((r) => [
        r.id,
        r.platforms.join(','),
        r.contractVersion,
        r.capabilities.join(', '),
      ]);
      if (format === 'wide') {
        headers.push('package');
        rows.forEach((r, i) => table[i]?.push(r.package));
      }
      ctx.stdout(renderTable(headers, table));
    });
}
