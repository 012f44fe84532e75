import type { Plan } from './protocol/index.js';
import type { HostAction, HostState, ObserveRequest, DeconfigureRequest } from './protocol/index.js';

/** What `observe` should report on besides everything tagged `OpenShift managed`. */
export type ObserveQuery = Omit<ObserveRequest, 'v' | 'op'>;
/** What `deconfigure` removes. */
export type DeconfigureOptions = Omit<DeconfigureRequest, 'v' | 'op'>;

/**
 * A local file to upload. `format: 'tar.gz'` marks a gzip-compressed tar archive holding the file (upstream's
 * payload layout): it is staged compressed and extracted on the host by `apply`, which checks the hash of
 * the extracted file.
 */
export interface LocalUploadSource {
  readonly localPath: string;
  readonly format?: 'tar.gz';
}

/** A payload file to stage on the host, named by its (uncompressed) content hash. */
export interface UploadFile {
  readonly sha256: string;
  /** The bytes, in memory or in a local file. */
  readonly source: Buffer | LocalUploadSource;
}

export interface UploadReport {
  /** Hashes sent now. */
  readonly uploaded: readonly string[];
  /** Hashes already staged on the host. */
  readonly skipped: readonly string[];
  readonly bytesSent: number;
}

export interface ChangeOutcome {
  readonly done: readonly HostAction[];
  readonly rebootRequired: boolean;
  /** The host restarts by itself (`ApplyOptions.rebootWhenRequired`); nothing waits for it to come back. */
  readonly rebootScheduled?: boolean;
}

export interface ApplyOptions {
  /**
   * Restart the host at the end of the apply when a step needs it, in the same PowerShell start. Services
   * of start type auto come up with the new boot; the caller waits for what they do (the Node), not the host.
   */
  readonly rebootWhenRequired?: boolean;
}

/**
 * The operator's one door to a Windows machine (ARCHITECTURE §5). Each call is one request to the host
 * module; a failed operation throws a typed error from `./errors.js`.
 */
export interface WindowsHost {
  readonly address: string;
  /** What the adapter counted across its connections, where it counts (the SSH adapter does). */
  readonly stats?: { readonly powershellStarts: number; readonly bytesSent: number } | undefined;
  observe(query: ObserveQuery): Promise<HostState>;
  /** Stage files (by SFTP, into the staging folder) whose hashes the host does not hold yet. */
  upload(files: readonly UploadFile[]): Promise<UploadReport>;
  /** Perform a plan; staged files named by its steps must have been uploaded first. */
  apply(plan: Plan, options?: ApplyOptions): Promise<ChangeOutcome>;
  /** Restart the host and return once it is back (a new boot time) and reachable again. */
  reboot(): Promise<void>;
  deconfigure(options: DeconfigureOptions): Promise<ChangeOutcome>;
  /** Close every connection and channel. Safe to call twice. */
  close(): Promise<void>;
}
