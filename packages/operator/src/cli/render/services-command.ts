import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { stringify } from 'yaml';
import {
  parseLogRotation,
  proxyEnvironment,
  withoutProxyCredentials,
  ServicesPlanner,
  WATCHED_ENVIRONMENT_VARS,
} from '@wmco/core/internal';
import { servicesConfigMap } from '@wmco/core';
import type { CliContext } from '../cli-context.js';
import { platformCore } from './platform-core.js';

interface Options {
  platform: string;
  vxlanPort?: string;
  debug?: boolean;
  apiServerUrl: string;
  wmcoVersion?: string;
  namespace: string;
}

function operatorVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function servicesCommand(ctx: CliContext): Command {
  return new Command('services')
    .description(
      'Print the windows-services-<version> ConfigMap for a platform (proxy and SERVICES_LOG_* from the environment)',
    )
    .requiredOption('--platform <platform>', 'cluster platform, e.g. AWS, Azure, None')
    .option('--vxlan-port <port>', 'custom hybrid-overlay VXLAN port')
    .option('--debug', 'verbose service logging (the operator’s --debugLogging)')
    .option(
      '--api-server-url <url>',
      'the cluster’s internal API server URL',
      'https://api-int.cluster.local:6443',
    )
    .option('--wmco-version <version>', 'version in the ConfigMap name (default: this build’s)')
    .option('--namespace <ns>', 'operator namespace', 'openshift-windows-machine-config-operator')
    .action(async (opts: Options) => {
      const core = platformCore(ctx, opts.platform);
      try {
        const services = core.container.resolve(ServicesPlanner).plan({
          apiServerInternalUrl: opts.apiServerUrl,
          vxlanPort: opts.vxlanPort,
          debug: opts.debug === true,
          logRotation: parseLogRotation(ctx.env),
        });
        const cm = servicesConfigMap(opts.wmcoVersion ?? operatorVersion(), opts.namespace, {
          services,
          files: [],
          environmentVars: withoutProxyCredentials(proxyEnvironment(ctx.env)),
          watchedEnvironmentVars: WATCHED_ENVIRONMENT_VARS,
        });
        ctx.stdout(stringify(cm, { lineWidth: 0 }).trimEnd());
      } finally {
        await core.dispose();
      }
    });
}
