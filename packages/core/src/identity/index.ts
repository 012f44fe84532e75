export * from './node-name.js';
export * from './bootstrap-identity.js';
export * from './registrations.js';
export * from './node-ownership.js';
export * from './name-decision.js';
export { instanceRef } from './instance-ref.js';
export { claimNode } from './node-claim.js';
export * from './node-metadata.js';
export { encryptUsername, decryptUsername } from './username-crypto.js';
