import { token } from '../token.js';
import type { PersistentRoute } from '../types/route.js';

/** Link-local routes (instance metadata) that must survive HNS network creation and reboots. */
export interface MetadataRoutes {
  routes(): readonly PersistentRoute[];
}
export const MetadataRoutes = token<MetadataRoutes>('platform.metadata-routes');
