import { Command } from 'commander';
import { kubeletConfiguration } from '@wmco/core';
import type { CliContext } from '../cli-context.js';

export function kubeletConfigCommand(ctx: CliContext): Command {
  return new Command('kubelet-config')
    .description('Print the kubelet configuration (C:\\k\\kubelet.conf) for a service network')
    .requiredOption('--service-cidr <cidr>', 'the cluster service network, e.g. 172.30.0.0/16')
    .action((opts: { serviceCidr: string }) => {
      ctx.stdout(kubeletConfiguration(opts.serviceCidr));
    });
}
