import { parseLogRotation } from '@wmco/core/internal';
import type { OperatorConfig } from './operator-config.js';

/** The Windows services' log rotation from the operator's `SERVICES_LOG_*` settings (as upstream's variables). */
export function servicesLogRotation(config: OperatorConfig): ReturnType<typeof parseLogRotation> {
  return parseLogRotation({
    SERVICES_LOG_FILE_SIZE: config.servicesLog.size,
    SERVICES_LOG_FILE_AGE: config.servicesLog.age,
    SERVICES_LOG_FLUSH_INTERVAL: config.servicesLog.flushInterval,
  });
}
