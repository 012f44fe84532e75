// @wmco/core: createWmcoCore, the reconcilers, the desired-state builders and the host access layer.
export { createWmcoCore, type WmcoCore, type WmcoCoreOptions } from './core/create-wmco-core.js';
export { selectProvider } from './core/select-provider.js';
export { ActivePlatform } from './core/active-platform.js';
export * from './provider/index.js';
export { parseAuthorizedKey, publicKeyHash, type AuthorizedKey } from './desired/authorized-key.js';
export { buildUserData } from './desired/user-data.js';
export * from './host/index.js';
export * from './converge/index.js';
