import type { KubeletClient } from './node-proxy.js';
import type { PodLogs } from './pod-logs.js';
import type { RequestLog } from './request-log.js';
import type { Faults } from './faults.js';
import type { ObjectStore } from './object-store.js';
import type { RequestAuthorizer } from './request-authorizer.js';
import type { RequestUser } from './request-user.js';
import type { TypeRegistry } from './type-registry.js';
import type { ObjectWriter } from './object-writer.js';
import type { WatchRegistry } from './watch-stream.js';

/** What request handlers share. */
export interface ServerContext {
  readonly registry: TypeRegistry;
  readonly store: ObjectStore;
  readonly writer: ObjectWriter;
  readonly watches: WatchRegistry;
  readonly faults: Faults;
  /** Hears every authenticated request (absent: not logged). */
  readonly requests?: RequestLog;
  /** Node then RBAC; with RBAC off, users that are not nodes may do anything. */
  readonly authorizer: RequestAuthorizer;
  /** The token authenticator, as TokenReview asks it (undefined: every token is unknown). */
  readonly lookupToken?: (token: string) => RequestUser | undefined;
  /** The API server's kubelet client (node proxy); absent: the node proxy answers 404. */
  readonly kubeletClient?: () => Promise<KubeletClient>;
  /** The simulated containers' logs that `pods/<name>/log` serves (absent: none). */
  readonly podLogs?: PodLogs;
}
