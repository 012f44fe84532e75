/** Kubernetes `Status` objects and the error type handlers throw to produce them. */

export interface StatusCause {
  readonly reason?: string;
  readonly message: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

export interface StatusBody {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Failure' | 'Success';
  readonly message?: string;
  readonly reason?: string;
  readonly details?: StatusDetails;
  readonly code: number;
}

/** An error that the server turns into a `kind: Status` reply with `code` as the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): StatusBody {
    return statusBody(this.code, this.reason, this.message, this.details);
  }
}

export function statusBody(
  code: number,
  reason: string | undefined,
  message: string,
  details?: StatusDetails,
): StatusBody {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: code < 400 ? 'Success' : 'Failure',
    message,
    ...(reason === undefined || reason === '' ? {} : { reason }),
    ...(details === undefined ? {} : { details }),
    code,
  };
}

/** The `resource "name"` phrase real error messages use, with the group when there is one. */
function what(resource: string, group: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

export const errors = {
  notFound(resource: string, group: string, name: string): ApiError {
    return new ApiError(404, 'NotFound', `${what(resource, group)} "${name}" not found`, {
      name,
      group,
      kind: resource,
    });
  },
  alreadyExists(resource: string, group: string, name: string): ApiError {
    return new ApiError(409, 'AlreadyExists', `${what(resource, group)} "${name}" already exists`, {
      name,
      group,
      kind: resource,
    });
  },
  conflict(resource: string, group: string, name: string, why: string): ApiError {
    return new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${what(resource, group)} "${name}": ${why}`,
      { name, group, kind: resource },
    );
  },
  invalid(kind: string, group: string, name: string, causes: readonly StatusCause[]): ApiError {
    const text = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
    const body = text.length === 1 ? (text[0] ?? '') : `[${text.join(', ')}]`;
    return new ApiError(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${body}`, {
      name,
      group,
      kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', ...c })),
    });
  },
  badRequest(message: string): ApiError {
    return new ApiError(400, 'BadRequest', message);
  },
  methodNotAllowed(message: string): ApiError {
    return new ApiError(405, 'MethodNotAllowed', message);
  },
  unsupportedMediaType(message: string): ApiError {
    return new ApiError(415, 'UnsupportedMediaType', message);
  },
  expired(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  },
  forbidden(message: string): ApiError {
    return new ApiError(403, 'Forbidden', message);
  },
  unauthorized(): ApiError {
    return new ApiError(401, 'Unauthorized', 'Unauthorized');
  },
};
