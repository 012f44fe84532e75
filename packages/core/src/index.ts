// @wmco/core: createWmcoCore, the reconcilers, the desired-state builders and the host access layer.
export { createWmcoCore, type WmcoCore, type WmcoCoreOptions } from './core/create-wmco-core.js';
export { selectProvider } from './core/select-provider.js';
export { ActivePlatform } from './core/active-platform.js';
export { newRootContainer } from './di.js';
export * from './provider/index.js';
export * from './kube/index.js';
export * from './admit/index.js';
export * from './identity/index.js';
export * from './cluster/index.js';
export * from './desired/index.js';
export * from './host/index.js';
export * from './converge/index.js';
export * from './controllers/index.js';
export * from './preflight/index.js';
export * from './lifecycle/index.js';
export * from './sources/byoh/index.js';
export * from './sources/machines/index.js';
export * from './monitoring/index.js';
