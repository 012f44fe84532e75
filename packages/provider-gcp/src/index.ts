export { gcpProvider, gcpProvider as default } from './gcp-provider.js';
export { gcpNodeName } from './gcp-node-name.js';
