import { token } from '../token.js';
import type { PayloadFile } from '../types/payload-file.js';
import type { ServiceContext, WindowsServiceSpec } from '../types/windows-service-spec.js';

/** Runs the platform's cloud node manager as a Windows service. */
export interface CloudNodeManager {
  /** Service definition merged into the services ConfigMap. */
  service(context: ServiceContext): WindowsServiceSpec;
  /** Files the core must copy to the instance before starting the service. */
  payload(): readonly PayloadFile[];
}
export const CloudNodeManager = token<CloudNodeManager>('platform.cloud-node-manager');
