import { WmcoError } from '@wmco/core/provider';

/** The Linux workers' ECR credential provider config cannot be rewritten for Windows. */
export class CredentialProviderConfigError extends WmcoError {
  constructor(why: string) {
    super('CredentialProviderConfig', `provider 'aws': ecr-credential-provider config: ${why}`);
  }
}
