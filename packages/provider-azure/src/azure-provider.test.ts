import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { azureOwnershipTag } from './azure-instance-tagging.js';
import { azureMachineAccess } from './azure-machine-access.js';
import { azurePlatformPrerequisites } from './azure-platform-prerequisites.js';
import { azureProvider } from './azure-provider.js';
import { azureUserDataFormat } from './azure-user-data-format.js';

test('registers only what Azure has', (t) => {
  t.deepEqual(providerCapabilities(azureProvider), [
    'platform.machine-access',
    'platform.user-data-format',
    'platform.cloud-node-manager',
    'platform.platform-prerequisites',
    'platform.instance-identity',
    'platform.instance-tagging',
  ]);
});

test('the ownership tag is the installer form: Azure tag names allow no slash', (t) => {
  t.deepEqual(azureOwnershipTag('mycluster-x7k2p'), {
    key: 'kubernetes.io_cluster.mycluster-x7k2p',
    value: 'shared',
  });
  t.is(azureOwnershipTag('mycluster-x7k2p', 'apply-owned').value, 'owned');
});

test('logs in as capi and wraps user data in tags with no extra steps', (t) => {
  t.is(azureMachineAccess.sshUser, 'capi');
  t.deepEqual(azureUserDataFormat.extraSteps, []);
  t.is(azureUserDataFormat.wrap('x'), '<powershell>x</powershell>\n<persist>true</persist>\n');
});

test('machine names are limited to 15 characters and MachineSet names to 9', (t) => {
  t.is(azurePlatformPrerequisites.machineNameMaxLength, 15);
  t.is(azurePlatformPrerequisites.machineSetNameMaxLength, 9);
  t.deepEqual(
    azurePlatformPrerequisites.supportedBuilds.map((b) => b.build),
    [17763, 20348, 26100],
  );
});
