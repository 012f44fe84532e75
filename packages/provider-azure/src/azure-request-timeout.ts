import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import type { AzureSdk } from './azure-sdk.js';

/**
 * A per-attempt pipeline policy: each request gets `ms` to be answered (the pipeline's default is no
 * limit at all). A request it abandons fails as a RestError with code ETIMEDOUT, which the pipeline's
 * retry policy retries like a dropped connection, naming the host and the time; an abort the caller asked
 * for stays an abort.
 */
export function requestTimeoutPolicy(sdk: Pick<AzureSdk, 'pipeline'>, ms: number): PipelinePolicy {
  return {
    name: 'wmcoRequestTimeout',
    async sendRequest(request, next) {
      if (!request.timeout) request.timeout = ms;
      try {
        return await next(request);
      } catch (error) {
        const abandoned =
          error instanceof Error && error.name === 'AbortError' && request.abortSignal?.aborted !== true;
        if (!abandoned) throw error;
        throw new sdk.pipeline.RestError(
          `no answer from ${new URL(request.url).host} within ${request.timeout} ms`,
          { code: 'ETIMEDOUT', request },
        );
      }
    },
  };
}
