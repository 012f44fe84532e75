import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  WINDOWS_SERVER_2025,
  type PlatformPrerequisites,
} from '@wmco/core/provider';
import { EC2LAUNCH_MIN_VERSION } from './aws-ec2launch-steps.js';

/** What AWS asks of a Windows AMI (reference §2). */
export const awsPlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2019, WINDOWS_SERVER_2022, WINDOWS_SERVER_2025],
  customVxlanPortRequired: false,
  notes: [
    `Disconnected clusters cannot download EC2Launch v2: use an AMI that ships EC2Launch v2 ${EC2LAUNCH_MIN_VERSION} or later (persistent metadata routes).`,
    'Instances must allow IMDSv1 (HttpTokens optional): the kubelet hostname override reads local-hostname without a session token.',
    'After a manual reboot the metadata route can be missing until EC2Launch restores it; reboot through the operator where possible.',
  ],
};
