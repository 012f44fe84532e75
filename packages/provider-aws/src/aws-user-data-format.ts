import type { UserDataFormat } from '@wmco/core/provider';
import { installEc2LaunchStep, persistMetadataRoutesStep } from './aws-ec2launch-steps.js';

/**
 * EC2Launch v2 runs user data between `<powershell>` tags; `<persist>true</persist>` would run it again at
 * every boot, which the script tolerates. AWS adds the EC2Launch v2 upgrade and persistent metadata routes.
 */
export const awsUserDataFormat: UserDataFormat = {
  extraSteps: [installEc2LaunchStep, persistMetadataRoutesStep],
  wrap: (script) => `<powershell>${script}</powershell>\n<persist>true</persist>\n`,
};
