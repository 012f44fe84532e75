import { token } from '../token.js';
import type { PayloadFile } from '../types/payload-file.js';

/** A kubelet image credential provider plugin (AWS ECR). */
export interface ImageCredentialProvider {
  /** The plugin binary and anything it needs on the host. */
  payload(): readonly PayloadFile[];
  /** Path of the provider config in the Linux workers' ignition, copied to the Windows host. */
  readonly ignitionConfigPath: string;
  /** Rewrites the Linux config for Windows (provider names must end in `.exe`). Throws on malformed input. */
  rewriteConfig(config: string): string;
  /** Extra kubelet flags that enable the plugin. */
  kubeletFlags(): readonly string[];
}
export const ImageCredentialProvider = token<ImageCredentialProvider>('platform.image-credential-provider');
