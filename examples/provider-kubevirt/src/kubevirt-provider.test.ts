import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { kubevirtProvider } from './kubevirt-provider.js';
import { kubevirtUserDataFormat } from './kubevirt-user-data-format.js';

test('cloudbase-init user data starts with the 64-bit PowerShell marker line', (t) => {
  t.is(kubevirtUserDataFormat.wrap("Write-Output 'x'\n"), "#ps1_sysnative\nWrite-Output 'x'\n");
});

test('serves the KubeVirt platform with machine access, user data and prerequisites only', (t) => {
  t.deepEqual(kubevirtProvider.platforms, ['KubeVirt']);
  t.deepEqual(providerCapabilities(kubevirtProvider), [
    'platform.machine-access',
    'platform.user-data-format',
    'platform.platform-prerequisites',
  ]);
});
