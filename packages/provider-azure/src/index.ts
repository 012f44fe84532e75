export { azureProvider, azureProvider as default } from './azure-provider.js';
