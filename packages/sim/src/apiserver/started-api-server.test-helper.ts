import { SimApiServer } from './api-server.js';

/** A started API server that already holds the given namespaces (created in order, as an admin would). */
export async function startApiServerWith(namespaces: readonly string[]): Promise<SimApiServer> {
  const sim = await SimApiServer.start();
  const ns = sim.registry.mustFind('', 'v1', 'namespaces');
  for (const name of namespaces) sim.writer.create(ns, undefined, { metadata: { name } });
  return sim;
}
