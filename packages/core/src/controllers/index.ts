export { ConfigMapHostKeyStore, InformedHostKeyStore } from './kube-host-key-store.js';
export { InformedClusterFacts } from './informed-cluster-facts.js';
export { CsrReconciler, type CsrReconcilerOptions } from './csr-reconciler.js';
export { moveLegacyHostKeys, type LegacyPinMove } from './legacy-host-key-migration.js';
