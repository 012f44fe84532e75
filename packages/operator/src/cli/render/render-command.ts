import { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { hostsTomlCommand } from './hosts-toml-command.js';
import { instancesCommand } from './instances-command.js';
import { kubeletConfigCommand } from './kubelet-config-command.js';
import { servicesCommand } from './services-command.js';
import { userDataCommand } from './user-data-command.js';

/** `wmco render …`: print what a Windows node will get, one sub-command per desired-state builder. */
export function renderCommand(ctx: CliContext): Command {
  return new Command('render')
    .description(
      'Show exactly what Windows nodes will get (user data, services, kubelet config, registry hosts, instances)',
    )
    .addCommand(userDataCommand(ctx))
    .addCommand(servicesCommand(ctx))
    .addCommand(kubeletConfigCommand(ctx))
    .addCommand(hostsTomlCommand(ctx))
    .addCommand(instancesCommand(ctx));
}
