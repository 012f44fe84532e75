import { inject, injectable } from '../di.js';
import { CloudNodeManager } from '../provider/capabilities/cloud-node-manager.js';
import { HostnameOverride } from '../provider/capabilities/hostname-override.js';
import { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import { buildWindowsServices, type ServicesOptions } from './windows-services.js';

/** Plans the services list with whatever service-related capabilities the platform registered. */
@injectable()
export class ServicesPlanner {
  constructor(
    @inject(CloudNodeManager, { isOptional: true }) private readonly cloudNodeManager?: CloudNodeManager,
    @inject(HostnameOverride, { isOptional: true }) private readonly hostnameOverride?: HostnameOverride,
    @inject(ImageCredentialProvider, { isOptional: true })
    private readonly imageCredentialProvider?: ImageCredentialProvider,
  ) {}

  plan(options: Omit<ServicesOptions, 'capabilities'>): WindowsServiceSpec[] {
    return buildWindowsServices({
      ...options,
      capabilities: {
        cloudNodeManager: this.cloudNodeManager,
        hostnameOverride: this.hostnameOverride,
        imageCredentialProvider: this.imageCredentialProvider,
      },
    });
  }
}
