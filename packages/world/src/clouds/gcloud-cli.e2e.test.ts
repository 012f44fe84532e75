import test from 'ava';
import { gcpProvider } from '@wmco/provider-gcp';
import { SimGce } from '@wmco/sim';
import { cloudCapabilities } from './cloud-capabilities.test-helper.js';
import { findCli, runCli, tempFiles } from './cli-runner.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

// A second real client: gcloud (Python google-auth and apitools) with the compute endpoint overridden
// and the simulated CA trusted. It authenticates with the service-account key through the key's
// token_uri, reads the label the operator's SDK client applied, and writes one (fingerprint, operation).
const gcloud = findCli('gcloud', ['/usr/bin']);
const INFRA = 'sim-gcp-cli01';
const OWNER = `kubernetes-io-cluster-${INFRA}`;

(gcloud ? test : test.skip)(
  'gcloud reads the instance and the label the SDK applied, and its writes are seen',
  async (t) => {
    const gce = await SimGce.start({ project: 'wmco-proj' });
    t.teardown(() => gce.close());
    const sim = gce.addInstance({ privateIp: '127.0.0.31', name: 'win-cli', zone: 'us-central1-a' });
    // The control plane the cluster's network is read from.
    gce.addInstance({
      privateIp: '10.0.0.10',
      name: 'master-0',
      zone: 'us-central1-a',
      tags: { [OWNER]: 'owned' },
    });
    const ctx = staticCloudContext({
      credentials: ROOT_CREDENTIALS,
      infrastructureName: INFRA,
      platformStatus: gce.platformStatus(),
      caBundle: gce.caPem,
      secrets: [gce.credentialsSecret()],
    });
    const caps = cloudCapabilities(gcpProvider, ctx);
    const found = await caps.identity.identify('127.0.0.31');
    if (!found) return t.fail('SDK did not find the instance');
    await caps.tagging.ensureTag(found, 'apply');

    const files = tempFiles({ 'ca.pem': gce.caPem, 'key.json': JSON.stringify(gce.serviceAccountKey) });
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: files['dir'] ?? '/tmp',
      CLOUDSDK_CONFIG: `${files['dir'] ?? '/tmp'}/gcloud`,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${gce.url}/compute/v1/`,
      CLOUDSDK_CORE_CUSTOM_CA_CERTS_FILE: files['ca.pem'] ?? '',
      // gcloud's token refresh goes through `requests`, which reads its CA bundle from here.
      REQUESTS_CA_BUNDLE: files['ca.pem'] ?? '',
      CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
      CLOUDSDK_CORE_PROJECT: 'wmco-proj',
    };
    const bin = gcloud ?? 'gcloud';
    const login = await runCli(
      bin,
      ['auth', 'activate-service-account', `--key-file=${files['key.json'] ?? ''}`],
      env,
    );
    t.is(login.code, 0, login.stderr);
    const listed = await runCli(bin, ['compute', 'instances', 'list', '--format=json'], env);
    t.is(listed.code, 0, listed.stderr);
    const instances = JSON.parse(listed.stdout) as {
      name: string;
      labels?: Record<string, string>;
      networkInterfaces: { networkIP: string }[];
    }[];
    const win = instances.find((i) => i.name === 'win-cli');
    t.is(instances.length, 2);
    t.is(win?.networkInterfaces[0]?.networkIP, '127.0.0.31');
    t.is(win?.labels?.[OWNER], 'shared');

    const labelled = await runCli(
      bin,
      ['compute', 'instances', 'add-labels', 'win-cli', '--zone=us-central1-a', '--labels=team=win'],
      env,
    );
    t.is(labelled.code, 0, labelled.stderr);
    t.deepEqual(sim.tagRecord(), { [OWNER]: 'shared', team: 'win' });
    t.is((await caps.identity.identify('127.0.0.31'))?.tags['team'], 'win');
  },
);
