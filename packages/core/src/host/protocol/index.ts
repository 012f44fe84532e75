// The versioned JSON contract between the operator and a Windows host (the module, or the simulator).
export * from './version.js';
export * from './host-state.js';
export * from './plan-step.js';
export * from './evaluate.js';
export * from './request.js';
export * from './result.js';
export * from './host-paths.js';
export * from './invocation.js';
export * from './install-invocation.js';
export * from './session-invocation.js';
