export {
  EMBEDDED_VERSION,
  startEmbeddedController,
  type EmbeddedController,
  type EmbeddedControllerOptions,
} from './embedded-controller.js';
export { lineLogger } from './line-logger.js';
