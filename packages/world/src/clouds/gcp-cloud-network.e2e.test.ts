// GCE VPC networks of one project may use the same ranges (issue 27): the cluster's network binds the
// identity, and BYOH instances are labelled shared unless owned is asked for.
import test, { type ExecutionContext } from 'ava';
import { gcpProvider } from '@wmco/provider-gcp';
import { CloudNotConfiguredError, InstanceOutsideClusterNetworkError } from '@wmco/core/provider';
import { SimGce } from '@wmco/sim';
import { cloudCapabilities, type CloudCapabilities } from './cloud-capabilities.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

const INFRA = 'sim-gcp-n3t5w';
const OWNER = `kubernetes-io-cluster-${INFRA}`;
const CLUSTER_NETWORK = 'projects/wmco-proj/global/networks/wmco-proj-network';

async function world(t: ExecutionContext): Promise<{ gce: SimGce; caps: CloudCapabilities }> {
  const gce = await SimGce.start({ project: 'wmco-proj', region: 'us-central1' });
  t.teardown(() => gce.close());
  const ctx = staticCloudContext({
    infrastructureName: INFRA,
    platformStatus: gce.platformStatus(),
    caBundle: gce.caPem,
    secrets: [gce.credentialsSecret()],
    credentials: ROOT_CREDENTIALS,
  });
  // The control plane, labelled as the installer labels it: the cluster's network is read from it.
  gce.addInstance({ privateIp: '10.0.0.10', name: `${INFRA}-master-0`, tags: { [OWNER]: 'owned' } });
  return { gce, caps: cloudCapabilities(gcpProvider, ctx) };
}

test('the same networkIP on another VPC network of the project is refused, never labelled', async (t) => {
  const { gce, caps } = await world(t);
  const peer = gce.addInstance({ privateIp: '127.0.0.7', name: 'peer-a', network: 'peer-network' });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.is(
    error.message,
    `gcp: instance ${peer.id} has private IP 127.0.0.7 but is in network ` +
      `projects/wmco-proj/global/networks/peer-network, not the cluster's network ${CLUSTER_NETWORK}`,
  );
  const ours = gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
  t.is(
    (await caps.identity.identify('127.0.0.7'))?.instanceId,
    ours.id,
    'the cluster network one is the host',
  );
  t.is(gce.faults.count('instances.setLabels'), 0);
  t.deepEqual(peer.tagRecord(), {});
});

test('apply-owned labels owned; a Machine labelled owned stays owned under apply', async (t) => {
  const { gce, caps } = await world(t);
  const byoh = gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
  const machine = gce.addInstance({ privateIp: '127.0.0.8', name: 'win-m', tags: { [OWNER]: 'owned' } });
  const a = await caps.identity.identify('127.0.0.7');
  const m = await caps.identity.identify('127.0.0.8');
  if (!a || !m) return t.fail('not found');
  t.like(await caps.tagging.ensureTag(a, 'apply-owned'), { tag: { value: 'owned' }, state: 'applied' });
  t.is(byoh.tags.get(OWNER), 'owned');
  t.deepEqual(await caps.tagging.ensureTag(m, 'apply'), {
    instanceId: machine.id,
    tag: { key: OWNER, value: 'owned' },
    state: 'present',
  });
  t.is(machine.tags.get(OWNER), 'owned');
});

test('the cluster network cannot be told without the control plane: not configured, nothing labelled', async (t) => {
  const { gce, caps } = await world(t);
  for (const [key, i] of gce.state.instances)
    if (i.tags.get(OWNER) === 'owned') gce.state.instances.delete(key);
  gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'), {
    instanceOf: CloudNotConfiguredError,
  });
  t.regex(error.message, /cannot tell the cluster's network: no instance is labelled kubernetes-io-cluster-/);
});
