/** A GCE API error: the compute v1 error body (`{"error": {"code", "message", "errors": [...]}}`). */
export class GceError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly extra: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): unknown {
    return {
      error: {
        code: this.status,
        message: this.message,
        errors: [{ message: this.message, domain: 'global', reason: this.reason, ...this.extra }],
      },
    };
  }
}

export const notFound = (path: string): GceError =>
  new GceError(404, 'notFound', `The resource '${path}' was not found`);
