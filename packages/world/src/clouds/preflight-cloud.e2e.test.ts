import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import type { PreflightReport } from '@wmco/core';
import { OPERATOR_NAMESPACE, startSimCluster } from '@wmco/sim';
import {
  NODE_FIREWALL_RULES,
  runWmco,
  sshFlags,
  startCheckedHost,
  writeKeyFile,
} from '../cli/in-process-cli.test-helper.js';
import { publishSimCloud } from './publish-sim-cloud.js';
import { applyCredentialsRequests, startSimCredentialOperator } from './sim-credential-operator.js';
import { startSimCloud } from './sim-clouds.js';

interface Run {
  readonly out: string;
  readonly report: PreflightReport;
  readonly instanceId: string;
  /** What the host's simulated metadata service answers as its hostname. */
  readonly metadataHostname: string;
}

/** A simulated cluster of `platform`, one Windows host that is an instance of its simulated cloud, and `wmco preflight --kubeconfig`. */
async function preflightOnCloud(t: ExecutionContext, platform: string, publish: boolean): Promise<Run[]> {
  const octet = ['AWS', 'GCP', 'Azure'].indexOf(platform) * 2 + (publish ? 11 : 12);
  const address = `127.0.${100 + (process.pid % 40)}.${octet}`;
  // The simulated cluster's VXLAN port is 9898; with --kubeconfig preflight reads it from the cluster.
  const vxlan = {
    name: 'HybridOverlayVXLAN9898',
    protocol: 'UDP',
    localPort: 9898,
    direction: 'Inbound',
  } as const;
  const rules = [...NODE_FIREWALL_RULES, vxlan];
  const { sim, key } = await startCheckedHost({ address, hostname: 'win-cloud', rules });
  const cluster = await startSimCluster({ platform });
  const cloud = await startSimCloud(platform);
  if (!cloud) throw new Error(`no simulated cloud for ${platform}`);
  const dir = await mkdtemp(join(tmpdir(), 'wmco-preflight-cloud-'));
  t.teardown(async () => {
    await cloud.close();
    await cluster.stop();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const instanceId = cloud.addHost(address, 'win-cloud', sim.model.metadataHostname);
  const kubeconfig = join(dir, 'admin.kubeconfig');
  await writeFile(kubeconfig, cluster.server.kubeconfig(cluster.admin), { mode: 0o600 });
  if (publish) {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    await publishSimCloud(kc, cloud);
    // The operator's minted Secret (what preflight reads by default), from deploy/'s CredentialsRequests.
    await applyCredentialsRequests(cluster, startSimCredentialOperator(cluster, cloud), OPERATOR_NAMESPACE);
  }
  const keyFile = await writeKeyFile(dir, key.private);
  const runs: Run[] = [];
  for (const output of [[], ['-o', 'json']]) {
    const args = ['preflight', sim.host, ...sshFlags(sim, keyFile)];
    const { out: text } = await runWmco([
      ...args,
      ...['--platform', platform, '--kubeconfig', kubeconfig, ...output],
    ]);
    runs.push({
      out: text,
      // The report is the JSON after the line preflight writes to stderr about the cluster it read.
      report:
        output.length > 0
          ? (JSON.parse(text.slice(text.indexOf('{'))) as PreflightReport)
          : ({} as PreflightReport),
      instanceId,
      metadataHostname: sim.model.metadataHostname,
    });
  }
  t.deepEqual(cloud.refused, [], 'every call preflight made is in the CredentialsRequest');
  return runs;
}

const cloudRows = (r: PreflightReport): Record<string, string> =>
  Object.fromEntries(r.findings.filter((f) => f.check.startsWith('cloud-')).map((f) => [f.check, f.status]));

const FIREWALL: Readonly<Record<string, string>> = { AWS: 'warn', GCP: 'warn', Azure: 'skip' };

for (const [platform, tag] of [
  ['AWS', /kubernetes\.io\/cluster\/sim-[0-9a-f]+=shared is missing/],
  ['GCP', /kubernetes-io-cluster-sim-[0-9a-f]+=shared is missing/],
  ['Azure', /kubernetes\.io_cluster\.sim-[0-9a-f]+=shared is missing/],
] as const) {
  test(`preflight on ${platform} prints the cloud instance ID and the ownership tag state`, async (t) => {
    const [table, json] = await preflightOnCloud(t, platform, true);
    if (!table || !json) return t.fail('no runs');
    t.regex(table.out, new RegExp(`PASS {2}cloud-instance +${json.instanceId} `));
    t.regex(table.out, tag);
    const dns: Readonly<Record<string, string>> = {
      AWS: json.metadataHostname, // EC2: privateDnsName = IMDS local-hostname
      GCP: 'win-cloud.us-central1-a.c.wmco-sim-project.internal',
      Azure: 'win-cloud',
    };
    t.true(table.out.includes(`private DNS ${dns[platform] ?? '?'}`), table.out);
    t.deepEqual(cloudRows(json.report), {
      'cloud-instance': 'pass',
      'cloud-tag': 'warn',
      'cloud-firewall': FIREWALL[platform],
    });
    const failed = json.report.findings.filter((f) => f.status === 'fail');
    t.deepEqual(failed, [], 'cloud findings warn, they never fail the preflight');
    t.true(json.report.ok);
  });

  test(`preflight on ${platform} without the credentials Secret says the cloud is not configured`, async (t) => {
    const [table, json] = await preflightOnCloud(t, platform, false);
    if (!table || !json) return t.fail('no runs');
    t.deepEqual(cloudRows(json.report), {
      'cloud-instance': 'skip',
      'cloud-tag': 'skip',
      'cloud-firewall': 'skip',
    });
    t.regex(table.out, /SKIP {2}cloud-instance +cloud access not configured/);
  });
}
