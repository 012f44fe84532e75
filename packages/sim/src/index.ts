// @wmco/sim: the simulated world (API server, cluster controllers, Windows hosts over SSH).
export * from './windows/index.js';
