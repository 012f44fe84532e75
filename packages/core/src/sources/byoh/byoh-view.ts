import type { V1Node } from '@kubernetes/client-node';
import type { ListedSource } from './listed-source.js';

/** What the BYOH controllers read from their informer caches. */
export interface ByohView {
  /** `windows-instances` data, or undefined when the ConfigMap does not exist. */
  instances(): Readonly<Record<string, string>> | undefined;
  windowsNodes(): readonly V1Node[];
  /** Changes whenever `windowsNodes()` may have changed: indexes of the nodes are rebuilt only then. */
  windowsNodesRevision(): number;
  node(name: string): V1Node | undefined;
  /** `cloud-private-key` `private-key.pem`, or undefined while the Secret is missing. */
  privateKey(): string | undefined;
  /** Which listed source these controllers run (absent: the `windows-instances` ConfigMap). */
  readonly source?: ListedSource;
}

export const ENTRY_PREFIX = 'entry:';
export const NODE_PREFIX = 'node:';
