import type { ClientChannel } from 'ssh2';
import { HostCommandTimeoutError, HostOperationError, HostOutputLimitError } from '../errors.js';
import { silentHostLogger } from '../host-logger.js';
import { encodePowerShellCommand } from '../protocol/invocation.js';
import { connectWithRetry } from '../ssh/connect.js';
import { loadPrivateKey } from '../ssh/private-key.js';
import { SshSession } from '../ssh/ssh-session.js';
import { resolveSshOptions, type SshHostOptions } from '../ssh/ssh-options.js';
import {
  hostCaptureInvocationScript,
  loadHostCaptureScript,
  parseCaptureOutput,
  type CaptureRecord,
} from './host-capture.js';

/** The most output a capture may print (a host with many services and certificates prints ~1 MB). */
export const CAPTURE_OUTPUT_MAX = 32 * 1024 * 1024;

interface ExecOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | undefined;
}

interface ExecLimits {
  readonly timeoutMs: number;
  readonly address: string;
}

/** Sends `stdin`, reads both streams to the end (bounded in time and size), and reports the exit code. */
function collect(channel: ClientChannel, stdin: string, limits: ExecLimits): Promise<ExecOutput> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let code: number | undefined;
    const stop = (error: Error): void => {
      clearTimeout(timer);
      channel.close();
      reject(error);
    };
    const timer = setTimeout(
      () => stop(new HostCommandTimeoutError(limits.address, limits.timeoutMs)),
      limits.timeoutMs,
    );
    const take =
      (into: Buffer[]) =>
      (b: Buffer): void => {
        bytes += b.length;
        if (bytes > CAPTURE_OUTPUT_MAX) stop(new HostOutputLimitError(limits.address, CAPTURE_OUTPUT_MAX));
        else into.push(b);
      };
    channel.on('data', take(out));
    channel.stderr.on('data', take(err));
    channel.on('exit', (exitCode: number | null) => (code = exitCode ?? undefined));
    channel.on('close', () => {
      clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code,
      });
    });
    channel.end(stdin);
  });
}

/**
 * Runs the read-only capture script (`assets/WmcoCapture.ps1`) on a host over SSH, through the same
 * connection code the operator uses (host key check, key loading, retries), and returns what each source
 * returned. Connecting fails with the adapter's typed errors (AuthenticationError, HostUnreachableError); a
 * script that did not reach its last line fails with HostOperationError carrying what the host printed.
 */
export async function captureHost(options: SshHostOptions): Promise<CaptureRecord[]> {
  const logger = options.logger ?? silentHostLogger;
  const o = resolveSshOptions(options, logger);
  const key = loadPrivateKey(options.privateKey, logger);
  const script = await loadHostCaptureScript();
  const ssh = new SshSession(await connectWithRetry(o, key), o, { execs: 0, sftpRequests: 0, bytesSent: 0 });
  try {
    const channel = await ssh.open(encodePowerShellCommand(hostCaptureInvocationScript(script.sha256)));
    const result = await collect(channel, `${script.bytes.toString('base64')}\n`, {
      timeoutMs: o.commandTimeoutMs,
      address: o.address,
    });
    const { records, complete } = parseCaptureOutput(result.stdout);
    if (!complete) {
      const why = result.stderr.trim() || result.stdout.trim() || `exit code ${String(result.code)}`;
      throw new HostOperationError(
        o.address,
        'capture',
        `the capture script did not finish: ${why.slice(0, 2000)}`,
      );
    }
    return records;
  } finally {
    ssh.close();
  }
}
