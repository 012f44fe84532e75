import test from 'ava';
import { SimArm } from '@wmco/sim';
import { findCli, runCli, tempFiles } from './cli-runner.test-helper.js';

// The Azure CLI (Debian's azure-cli 2.45) as a second client. It registers the simulated ARM as a custom
// cloud from its /metadata/endpoints, as it does for Azure Stack Hub. It cannot sign in to it: its MSAL
// always asks login.microsoftonline.com for instance discovery for a non-ADFS authority, and 2.45 has
// no switch to turn that off, so reading VMs with az needs network access to Entra ID.
const az = findCli('az', ['/usr/bin']);

(az ? test : test.skip)('az cloud register reads the simulated ARM metadata endpoints', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  const files = tempFiles({ 'ca.pem': arm.caPem });
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: files['dir'] ?? '/tmp',
    AZURE_CONFIG_DIR: `${files['dir'] ?? '/tmp'}/az`,
    REQUESTS_CA_BUNDLE: files['ca.pem'] ?? '',
    AZURE_CORE_COLLECT_TELEMETRY: 'false',
  };
  const bin = az ?? 'az';
  const registered = await runCli(
    bin,
    ['cloud', 'register', '-n', 'WmcoSim', '--endpoint-resource-manager', arm.url],
    env,
  );
  t.is(registered.code, 0, registered.stderr);
  const shown = await runCli(bin, ['cloud', 'show', '-n', 'WmcoSim', '-o', 'json'], env);
  t.is(shown.code, 0, shown.stderr);
  const cloud = JSON.parse(shown.stdout) as { endpoints: Record<string, string | null> };
  t.is(cloud.endpoints['resourceManager'], arm.url);
  t.is(cloud.endpoints['activeDirectory'], `${arm.url}/`);
  t.is(cloud.endpoints['activeDirectoryResourceId'], 'https://management.azure.com/');
});
