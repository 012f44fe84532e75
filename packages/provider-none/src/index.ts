export { noneProvider, noneProvider as default } from './none-provider.js';
