/** The hostPrefix of the simulated cluster's hybrid cluster network (as OpenShift's docs show it). */
const HOST_PREFIX = 23;
/** 10.160.0.0/11: clear of the cluster network (10.128.0.0/14) and the service network (172.30.0.0/16). */
const BASE = '10.160.0.0';
const WIDEST = 11;
/** Below this the default network (10.132.0.0/14, 512 nodes) would do; the scale world still uses its own. */
const NARROWEST = 14;

/** How many Windows nodes the scale world's hybrid network can give a subnet to. */
export const MAX_SCALE_NODES = 2 ** (HOST_PREFIX - WIDEST);

/**
 * The hybrid cluster network a cluster admin would configure for `nodes` Windows nodes: one /23 each, so
 * the smallest /N (at least a /14) with room for them all. The default `10.132.0.0/14` holds 512 nodes,
 * after which the hybrid overlay allocates none and joins wait for a subnet forever.
 */
export function scaleHybridNetwork(nodes: number): string {
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_SCALE_NODES)
    throw new Error(`the scale world's hybrid network holds 1-${MAX_SCALE_NODES} nodes, not ${nodes}`);
  const prefix = Math.min(NARROWEST, HOST_PREFIX - Math.ceil(Math.log2(nodes)));
  return `${BASE}/${prefix}`;
}
