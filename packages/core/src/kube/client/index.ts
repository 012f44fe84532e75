export * from './api-errors.js';
export { KubeLeaseStore } from './kube-lease-store.js';
export { kubeWatch } from './kube-watch.js';
export { KubeEventRecorder, type KubeEventRecorderOptions } from './kube-event-recorder.js';
export { drainNode, DrainError, type DrainOptions, type DrainResult } from './drain.js';
export { mergePatchNode, type NodeMergePatch } from './node-merge-patch.js';
