import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { awsMetadataRoutes } from './aws-metadata-routes.js';
import { awsPlatformPrerequisites } from './aws-platform-prerequisites.js';
import { awsProvider } from './aws-provider.js';

test('registers what AWS has, and no host rename or cloud node manager', (t) => {
  t.deepEqual(providerCapabilities(awsProvider), [
    'platform.machine-access',
    'platform.user-data-format',
    'platform.hostname-override',
    'platform.image-credential-provider',
    'platform.metadata-routes',
    'platform.platform-prerequisites',
    'platform.instance-identity',
    'platform.instance-tagging',
    'platform.firewall-facts',
  ]);
});

test('keeps the instance metadata service routed', (t) => {
  t.deepEqual(
    awsMetadataRoutes.routes().map((r) => r.destinationPrefix),
    ['169.254.169.254/32'],
  );
});

test('supports Windows Server 2019, 2022 and 2025 with no name limits or custom VXLAN port', (t) => {
  t.deepEqual(
    awsPlatformPrerequisites.supportedBuilds.map((b) => b.build),
    [17763, 20348, 26100],
  );
  t.is(awsPlatformPrerequisites.machineNameMaxLength, undefined);
  t.false(awsPlatformPrerequisites.customVxlanPortRequired);
  t.true(awsPlatformPrerequisites.notes.some((n) => n.includes('2.0.2107')));
});
