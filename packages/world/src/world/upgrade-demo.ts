import type { V1Node } from '@kubernetes/client-node';
import { LIFECYCLE_PHASE_ANNOTATION } from '@wmco/core/internal';
import type { SimWorld } from './sim-world.js';
import { windowsNodes } from './world-fixture.js';

/** The binary whose content differs between the demo's two operator versions. */
export const DEMO_CHANGED_BINARY = 'kube-proxy.exe';

export interface UpgradeDemoOptions {
  /** How long after every host is Ready the operator is replaced. */
  readonly afterMs: number;
  /** The version the second operator runs as (its nodes' `version` annotation). */
  readonly nextVersion: string;
  readonly maxUnavailable?: string;
  readonly timeoutMs: number;
  readonly out: (line: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `<version> <step>`: the step is the lifecycle phase, else whether the node is cordoned. */
function nodeLine(n: V1Node): string {
  const a = n.metadata?.annotations ?? {};
  const step = a[LIFECYCLE_PHASE_ANNOTATION] ?? (n.spec?.unschedulable ? 'cordoned' : 'in service');
  return `${a['windowsmachineconfig.openshift.io/version'] ?? '-'} ${step}`;
}

/** Prints each node's line when it changes, until every node is on the next version and in service. */
async function follow(world: SimWorld, o: UpgradeDemoOptions): Promise<boolean> {
  const t0 = Date.now();
  const last = new Map<string, string>();
  const done = `${o.nextVersion} in service`;
  const elapsed = (): string => ((Date.now() - t0) / 1000).toFixed(1);
  while (Date.now() - t0 <= o.timeoutMs) {
    for (const n of await windowsNodes(world)) {
      const name = n.metadata?.name ?? '';
      const line = nodeLine(n);
      if (last.get(name) !== line) o.out(`  +${elapsed()}s ${name}: ${line}`);
      last.set(name, line);
    }
    if ([...last.values()].every((l) => l === done)) {
      o.out(`every node on ${o.nextVersion} in ${elapsed()}s`);
      return true;
    }
    await sleep(200);
  }
  return false;
}

/**
 * `wmco sim --upgrade-after S`: stops the running operator (version A) and starts version B in the same
 * world, with a payload in which only `kube-proxy.exe` differs, then prints each node's version and
 * maintenance step as they change, until every node carries B, uncordoned. Resolves true when it does.
 */
export async function upgradeDemo(world: SimWorld, o: UpgradeDemoOptions): Promise<boolean> {
  o.out(
    `\nupgrading in ${o.afterMs / 1000}s to ${o.nextVersion} (payload differs in ${DEMO_CHANGED_BINARY})`,
  );
  await sleep(o.afterMs);
  for (const op of world.operators) await op.stop();
  const payloadDir = await world.payloadVariant('next', [DEMO_CHANGED_BINARY]);
  await world.startOperator('wmco-next', {
    version: o.nextVersion,
    payloadDir,
    ...(o.maxUnavailable ? { maxUnavailable: o.maxUnavailable } : {}),
  });
  o.out(`operator ${o.nextVersion} started (max-unavailable ${o.maxUnavailable ?? '1'})`);
  return follow(world, o);
}
