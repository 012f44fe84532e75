export { awsProvider, awsProvider as default } from './aws-provider.js';
export { rewriteCredentialProviderConfig } from './aws-image-credential-provider.js';
export { CredentialProviderConfigError } from './credential-provider-config-error.js';
