import { ApiextensionsV1Api, CustomObjectsApi, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { LIFECYCLE_PHASE_ANNOTATION } from '@wmco/core/internal';
import type { SimWorld } from './sim-world.js';
import { NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import { Workload } from './workload.js';

export const VERSION_A = '1.0.0';
export const VERSION_B = '1.1.0';
/** The one binary that differs between A's and B's payloads. */
export const CHANGED_BINARY = 'kube-proxy.exe';
const VERSION = 'windowsmachineconfig.openshift.io/version';

export const versionOf = (n: V1Node): string | undefined => n.metadata?.annotations?.[VERSION];

/** Four hosts joined by operator A (stopped again), a PDB-protected workload of four pods on them. */
export async function worldOnVersionA(
  hostCount = 4,
): Promise<{ world: SimWorld; workload: Workload; payloadB: string }> {
  const hosts = Array.from({ length: hostCount }, (_, i) => ({ hostname: `WIN-${'ABCDEFGH'[i] ?? i}` }));
  const { world } = await testWorld(hosts, { costs: { powershellStartMs: 100 } });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  const a = await world.startOperator('wmco-a', { version: VERSION_A });
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready on A`, phaseIs(world, h.address, 'Ready'), 120_000);
  await until('every node annotated with A', async () =>
    (await windowsNodes(world)).every((n) => versionOf(n) === VERSION_A) ? true : undefined,
  );
  await a.stop();
  const workload = new Workload(world, 'web', NS, hostCount);
  await workload.start(hostCount - 1);
  return { world, workload, payloadB: await world.payloadVariant('b', [CHANGED_BINARY]) };
}

/** Every Windows node on `version`, uncordoned, with no lifecycle step left. */
export function allUpgraded(world: SimWorld, version = VERSION_B): () => Promise<true | undefined> {
  return async () => {
    const nodes = await windowsNodes(world);
    const done = nodes.every(
      (n) =>
        versionOf(n) === version &&
        !n.spec?.unschedulable &&
        n.metadata?.annotations?.[LIFECYCLE_PHASE_ANNOTATION] === undefined,
    );
    return done ? true : undefined;
  };
}

/** Upload bytes each host has received so far, by node name (hostname lower-cased). */
export function bytesByHost(world: SimWorld): Map<string, number> {
  return new Map(world.hosts.hosts.map((h) => [h.spec.hostname.toLowerCase(), h.sim.stats.bytesReceived]));
}

const OC = { group: 'operators.coreos.com', version: 'v2', plural: 'operatorconditions' } as const;

/** What OLM does at install: the OperatorCondition CRD and the operator's (empty) OperatorCondition. */
export async function installOperatorCondition(world: SimWorld, name: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const free = { type: 'object', x_kubernetes_preserve_unknown_fields: true };
  await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
    body: {
      metadata: { name: 'operatorconditions.operators.coreos.com' },
      spec: {
        group: OC.group,
        scope: 'Namespaced',
        names: { plural: OC.plural, singular: 'operatorcondition', kind: 'OperatorCondition' },
        versions: [
          {
            name: OC.version,
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: free, status: free } } },
          },
        ],
      },
    },
  });
  const custom = kc.makeApiClient(CustomObjectsApi);
  await until('the OperatorCondition created', () =>
    custom.createNamespacedCustomObject({
      ...OC,
      namespace: NS,
      body: { apiVersion: `${OC.group}/${OC.version}`, kind: 'OperatorCondition', metadata: { name } },
    }),
  );
}

/** The `Upgradeable` condition the operator wrote, as `status/reason`. */
export function upgradeableOf(world: SimWorld, name: string): () => Promise<string | undefined> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const custom = kc.makeApiClient(CustomObjectsApi);
  return async () => {
    const oc = (await custom.getNamespacedCustomObject({ ...OC, namespace: NS, name })) as {
      spec?: { conditions?: { type: string; status: string; reason: string }[] };
    };
    const c = oc.spec?.conditions?.find((x) => x.type === 'Upgradeable');
    return c ? `${c.status}/${c.reason}` : undefined;
  };
}
