#!/usr/bin/env node
import { startEmbeddedController } from './embedded-controller.js';
import { lineLogger } from './line-logger.js';

// The process around the embedded core: configuration from the environment, its own logger, and the
// process signals. WATCH_NAMESPACE and PAYLOAD_DIR are required; KUBECONFIG is optional.
const logger = lineLogger({ level: process.env['LOG_LEVEL'] === 'debug' ? 'debug' : 'info' });
const namespace = process.env['WATCH_NAMESPACE'];
const payloadDir = process.env['PAYLOAD_DIR'];
if (!namespace || !payloadDir) {
  process.stderr.write('embedded-controller: set WATCH_NAMESPACE and PAYLOAD_DIR\n');
  process.exit(2);
}
const controller = await startEmbeddedController({
  kubeconfig: process.env['KUBECONFIG'],
  namespace,
  payloadDir,
  platform: process.env['PLATFORM'] ?? 'None',
  logger,
});
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    logger.info({ signal }, 'stopping');
    void controller.stop().then(() => process.exit(0));
  });
