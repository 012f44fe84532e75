export * from './cluster-validation.js';
