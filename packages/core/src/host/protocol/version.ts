/**
 * Version of the JSON requests and results exchanged with `WmcoHost.psm1` (and the simulated host). Bump it
 * whenever a schema in this folder changes incompatibly; the module refuses requests of another version.
 */
export const HOST_PROTOCOL_VERSION = 1;
