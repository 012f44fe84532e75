import type { Logger } from '@wmco/core';
import type { CloudCredentials } from '@wmco/core/provider';
import type { OperatorConfig } from '../runtime/operator-config.js';

/**
 * The credentials the cloud capabilities read, from `--cloud-credentials`: the Secret minted from the
 * operator's CredentialsRequest in its own namespace (default), or, when the admin asks for `root`, the
 * installer's root Secret in kube-system, with a warning, since those credentials can do anything.
 */
export function cloudCredentialsSetting(
  config: Pick<OperatorConfig, 'cloudCredentials' | 'namespace'>,
  logger: Logger,
): CloudCredentials {
  const mode = config.cloudCredentials ?? 'minted';
  if (mode === 'root')
    logger.warn(
      { cloudCredentials: 'root' },
      "--cloud-credentials=root: the cloud calls use the installer's root credentials in kube-system, not the scoped Secret minted from the operator's CredentialsRequest; a compromised operator pod could use them for anything the cloud account allows",
    );
  return { mode, namespace: config.namespace };
}
