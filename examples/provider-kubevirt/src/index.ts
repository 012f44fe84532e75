export { kubevirtProvider, kubevirtProvider as default } from './kubevirt-provider.js';
