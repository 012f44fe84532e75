/** An ARM error: `{"error": {"code", "message"}}` with the HTTP status ARM uses. */
export class ArmError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): unknown {
    return { error: { code: this.code, message: this.message } };
  }
}

/** An Entra ID (AAD) token endpoint error: `{"error", "error_description", "error_codes"}`. */
export class AadError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly aadCode: number,
    description: string,
  ) {
    super(`AADSTS${aadCode}: ${description}`);
  }

  body(): unknown {
    return {
      error: this.error,
      error_description: this.message,
      error_codes: [this.aadCode],
      timestamp: new Date().toISOString().replace('T', ' ').replace('Z', 'Z'),
      trace_id: '00000000-0000-0000-0000-000000000000',
      correlation_id: '00000000-0000-0000-0000-000000000000',
    };
  }
}
