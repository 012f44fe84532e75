import { WmcoError } from '../provider/errors.js';

/** The host presented a key other than the one pinned for it. Never retried, never accepted. */
export class HostKeyMismatchError extends WmcoError {
  constructor(
    readonly address: string,
    readonly pinned: string,
    readonly presented: string,
  ) {
    super(
      'HostKeyMismatch',
      `host ${address} presented SSH host key ${presented}, but ${pinned} is pinned for it; refusing to connect`,
    );
  }
}

/** The host refused our private key (after the retry window for hosts still configuring sshd). */
export class AuthenticationError extends WmcoError {
  constructor(
    readonly address: string,
    readonly username: string,
    why: string,
  ) {
    super('SshAuthentication', `SSH authentication as '${username}' to ${address} failed: ${why}`);
  }
}

/** No SSH connection could be made before the deadline. */
export class HostUnreachableError extends WmcoError {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super('HostUnreachable', `cannot reach ${address} over SSH: ${why}`);
  }
}

/** A private key that cannot be used: unparseable, encrypted, or of an unsupported type. */
export class PrivateKeyError extends WmcoError {
  constructor(why: string) {
    super('PrivateKey', `private key: ${why}`);
  }
}

/** A command on the host did not finish in time; its channel was closed. */
export class HostCommandTimeoutError extends WmcoError {
  constructor(
    readonly address: string,
    readonly timeoutMs: number,
    what = 'command',
  ) {
    super(
      'HostCommandTimeout',
      `${what} on ${address} did not finish within ${timeoutMs} ms; its channel was closed`,
    );
  }
}

/** The host answered, but not with a valid result of the host protocol. */
export class HostProtocolError extends WmcoError {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super('HostProtocol', `host ${address} gave no valid result: ${why}`);
  }
}

/** The host module ran the operation and reported a failure (`step` = failing plan step index). */
export class HostOperationError extends WmcoError {
  constructor(
    readonly address: string,
    readonly op: string,
    readonly reason: string,
    readonly step?: number,
  ) {
    super('HostOperation', `${op} on ${address} failed: ${reason}`);
  }
}

/** An upload did not complete or did not arrive intact. */
export class HostUploadError extends WmcoError {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super('HostUpload', `upload to ${address} failed: ${why}`);
  }
}

/** A request failed its schema before anything was sent (e.g. a host name with shell characters). */
export class InvalidHostRequestError extends WmcoError {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super('InvalidHostRequest', `refusing to send an invalid request to ${address}: ${why}`);
  }
}

/** The host printed more than the operator reads from one command; the channel was closed. */
export class HostOutputLimitError extends WmcoError {
  constructor(
    readonly address: string,
    readonly limitBytes: number,
    scope = 'one command',
  ) {
    super(
      'HostOutputLimit',
      `host ${address} printed more than ${limitBytes} bytes for ${scope}; stopped reading and closed it`,
    );
  }
}

/** The host took a request (an SFTP request, the module session's start) and gave no answer in time. */
export class HostRequestTimeoutError extends WmcoError {
  constructor(
    readonly address: string,
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(
      'HostRequestTimeout',
      `${what} on ${address} got no answer within ${timeoutMs} ms; the connection was closed`,
    );
  }
}

/** The work a host request was for was stopped (the reconcile's abort): the request was abandoned. */
export class HostWorkAbandonedError extends WmcoError {
  constructor(
    readonly address: string,
    readonly what: string,
  ) {
    super('HostWorkAbandoned', `${what} on ${address} was abandoned: the work it was for was stopped`);
  }
}

/**
 * The host's working area (`C:\ProgramData\wmco` or its staging folder) cannot be trusted: a reparse point,
 * writable by non-administrators or owned by another principal. Nothing was written; `refusal` names the
 * folder, the reason and the fix, as the host module says it.
 */
export class HostFolderRefusedError extends WmcoError {
  constructor(
    readonly address: string,
    readonly refusal: string,
  ) {
    super('HostFolderRefused', `host ${address} refused: ${refusal}`);
  }
}
