import { randomBytes } from 'node:crypto';
import { ApiextensionsV1Api, type KubernetesObject } from '@kubernetes/client-node';
import { attachSeed } from '@wmco/sim';
import type { BootstrapIdentity } from '@wmco/core/internal';
import { bootstrapIdentity } from '@wmco/operator';
import { bootstrapSecretProblem } from './attach-bootstrap-check.js';
import { createIfAbsent, waitFor, type CreatedSink } from './attach-objects.js';
import { missingOpenShift } from './attach-prereqs.js';
import type { AttachTarget } from './attach-target.js';

/** Raised by a check before attach mode starts: what is wrong and what to do; nothing was written. */
export class AttachPrecheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachPrecheckError';
  }
}

/** Raised when the cluster lacks what the operator reads from OpenShift and `--seed` was not given. */
export class MissingOpenShiftError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(
      `the cluster lacks what the operator reads from OpenShift: ${missing.join(', ')}. ` +
        'Attach to an OpenShift cluster, or add --seed to create stand-ins for what is missing (nothing that exists is changed)',
    );
    this.name = 'MissingOpenShiftError';
  }
}

async function established(target: AttachTarget, crds: readonly KubernetesObject[]): Promise<void> {
  const api = target.kc.makeApiClient(ApiextensionsV1Api);
  for (const c of crds) {
    const name = c.metadata?.name ?? '';
    await waitFor(
      `CRD ${name} to be Established`,
      async () => {
        const crd = await api.readCustomResourceDefinition({ name });
        const ok = crd.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True');
        return ok === true ? true : undefined;
      },
      30_000,
    );
  }
}

/**
 * `--seed`: the OpenShift CRDs and configuration objects the simulated cluster starts with, created where
 * the cluster lacks them (never overwriting); returns one line per stand-in created and per object kept.
 */
export async function seedOpenShift(
  target: AttachTarget,
  platform: string,
  bootstrapGroup?: string,
  onCreated?: CreatedSink,
): Promise<string[]> {
  const seed = attachSeed({
    platform,
    apiServerUrl: target.server,
    caPem: target.caPem,
    infrastructureName: `attach-${randomBytes(3).toString('hex').slice(0, 5)}`,
    ...(bootstrapGroup !== undefined ? { bootstrapGroup } : {}),
  });
  const crds = seed.crds as readonly KubernetesObject[];
  const crdReport = await createIfAbsent(target.kc, crds, onCreated);
  await established(target, crds);
  const objReport = await createIfAbsent(target.kc, seed.objects, onCreated);
  const created = [...crdReport.created, ...objReport.created];
  const kept = [...crdReport.kept, ...objReport.kept];
  return [
    `seed: created ${created.length} stand-in objects${created.length > 0 ? ` (${created.join(', ')})` : ''}`,
    `seed: kept ${kept.length} that the cluster already had${kept.length > 0 ? ` (${kept.join(', ')})` : ''}`,
  ];
}

async function checkBootstrapSecret(target: AttachTarget, expected: BootstrapIdentity): Promise<void> {
  const problem = await bootstrapSecretProblem(target.kc, expected);
  if (problem !== undefined) throw new AttachPrecheckError(problem);
}

/** What `ensureOpenShift` needs to know of the run. */
export interface EnsureOptions {
  readonly seed: boolean;
  readonly platform: string;
  readonly bootstrapGroup?: string | undefined;
  readonly onCreated?: CreatedSink | undefined;
}

/**
 * Checks what the operator needs from OpenShift; with `seed` it first creates what is missing, and waits
 * for the cluster's token controller to fill the node-bootstrapper token. An existing node-bootstrapper
 * token the operator could not use (no CA, another bootstrap identity) stops it before anything is written.
 */
export async function ensureOpenShift(target: AttachTarget, o: EnsureOptions): Promise<string[]> {
  const expected = bootstrapIdentity(o.bootstrapGroup);
  await checkBootstrapSecret(target, expected);
  const report = o.seed ? await seedOpenShift(target, o.platform, o.bootstrapGroup, o.onCreated) : [];
  if (o.seed) {
    await waitFor(
      'the node-bootstrapper token to be filled',
      async () => {
        const m = await missingOpenShift(target.kc);
        return m.length === 0 ? true : undefined;
      },
      30_000,
    ).catch(() => undefined);
  }
  const missing = await missingOpenShift(target.kc);
  if (missing.length > 0) throw new MissingOpenShiftError(missing);
  await checkBootstrapSecret(target, expected);
  return report;
}
