import type { MetadataRoutes } from '@wmco/core/provider';

/** The EC2 instance metadata service must stay reachable after HNS creates its networks and after reboots. */
export const awsMetadataRoutes: MetadataRoutes = {
  routes: () => [
    {
      destinationPrefix: '169.254.169.254/32',
      description: 'EC2 instance metadata service (IMDS): hostname override and credentials',
    },
  ],
};
