import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import type { HostFile } from '../provider/types/payload-file.js';
import { WindowsPaths } from '../provider/types/windows-paths.js';

/**
 * `C:\k\credential-provider-config.yaml`: the Linux workers' credential provider config (read from
 * `provider.ignitionConfigPath` in the ignition) rewritten for Windows by the platform's capability.
 * A rewrite failure is reported with the source path.
 */
export function credentialProviderConfigFile(
  provider: ImageCredentialProvider,
  linuxConfig: string,
): HostFile {
  let content: string;
  try {
    content = provider.rewriteConfig(linuxConfig);
  } catch (err) {
    throw new Error(
      `credential provider config ${provider.ignitionConfigPath}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return { path: WindowsPaths.credentialProviderConfig, content };
}
