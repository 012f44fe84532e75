import { budgetHealth, coveredPods } from './disruption.js';
import { parseObjectBody, readBody, sendJson } from './http-io.js';
import { isObject, meta, str, type JsonObject } from './json.js';
import type { ResourceCall } from './resource-handler.js';
import { deleteOptions } from './delete-options.js';
import { ApiError, errors, statusBody } from './status.js';

/**
 * POST pods/<name>/eviction (policy/v1 Eviction). Pods that are not Running are evicted without a budget
 * check, as the real server does; otherwise exactly one matching PodDisruptionBudget must allow a
 * disruption, else 429 TooManyRequests with a DisruptionBudget cause (kubectl drain retries on it).
 */
export async function evict(c: ResourceCall, name: string): Promise<void> {
  const body = parseObjectBody(c.req, await readBody(c.req));
  const bodyName = str(meta(body)['name']);
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(`name in URL does not match name in Eviction object`);
  }
  const ns = c.info.namespace;
  const reg = c.ctx.registry;
  const podType = reg.mustFind('', 'v1', 'pods');
  const pod = c.ctx.store.get(podType, ns, name);
  if (!pod) throw errors.notFound('pods', '', name);
  const status = isObject(pod['status']) ? pod['status'] : {};
  if (str(status['phase']) === 'Running' && meta(pod)['deletionTimestamp'] === undefined) {
    checkBudgets(c, pod);
  }
  const opts = deleteOptions(isObject(body['deleteOptions']) ? body['deleteOptions'] : {}, c.query);
  // A dry-run eviction (drain --dry-run=server) checks the budget and deletes nothing.
  (opts.dryRun ? c.ctx.writer.forDryRun() : c.ctx.writer).delete(podType, ns, name, opts);
  sendJson(c.res, 201, statusBody(201, undefined, ''));
}

function checkBudgets(c: ResourceCall, pod: JsonObject): void {
  const reg = c.ctx.registry;
  const pdbType = reg.mustFind('policy', 'v1', 'poddisruptionbudgets');
  const pods = c.ctx.store.all(reg.mustFind('', 'v1', 'pods'));
  const pdbs = c.ctx.store.all(pdbType).filter((p) => coveredPods(p, [pod]).length > 0);
  if (pdbs.length > 1) {
    throw new ApiError(
      500,
      'InternalError',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  }
  const pdb = pdbs[0];
  if (!pdb) return;
  const h = budgetHealth(pdb, pods);
  if (h.disruptionsAllowed > 0) return;
  const pdbName = str(meta(pdb)['name']) ?? '';
  throw new ApiError(
    429,
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${pdbName} needs ${h.desiredHealthy} healthy pods and has ${h.currentHealthy} currently`,
        },
      ],
    },
  );
}
