import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerChannel } from 'ssh2';
import { SESSION_RESULT_PREFIX } from '@wmco/core/internal';
import type { WindowsModel } from '../windows-model.js';
import { DiskFileSystem } from './disk-file-system.js';
import { networkCalls } from './rpc-network.js';
import { serviceCalls } from './rpc-services.js';
import { systemCalls } from './rpc-system.js';
import { endSession, killSession } from './session-process.js';
import { ShimRpcServer } from './shim-rpc.js';

/** The PowerShell engine of one host: which pwsh, and the folder that holds the host's `C:` drive. */
export interface PowerShellEngineOptions {
  /** PowerShell 7's executable (`findPwsh(process.env).path`). */
  readonly pwsh: string;
  /** Where hosts' folders are made: each host gets its own fresh `<dir>/<address>-XXXXXX`, `C:\` is its `C`. */
  readonly dir: string;
}

/** `assets/pwsh/harness.ps1`, located from this file (dist/windows/pwsh/) at run time. */
export const HARNESS_FILE = fileURLToPath(new URL('../../../assets/pwsh/harness.ps1', import.meta.url));

/**
 * Windows' tar.exe (bsdtar, in System32 since Windows Server 2019) on this host: the system tar, with
 * the `C:\…` arguments mapped to the host's folder.
 */
const TAR_EXE = String.raw`#!/bin/sh
# tar.exe of the simulated Windows host (bsdtar on Windows): C:\ paths are the host's folder.
root="$(cd "$(dirname "$0")/../.." && pwd)"
for a in "$@"; do
  case "$a" in
    [Cc]:[\\/]*) a="$root$(printf '%s' "$a" | sed 's|^..||; s|\\|/|g')" ;;
  esac
  set -- "$@" "$a"
  shift
done
exec tar "$@"
`;

/** What the session script names on disk through .NET (ReadAllBytes/WriteAllBytes): the host's folder. */
const NET_FILE_LITERAL = /(\[System\.IO\.File\]::(?:ReadAllBytes|WriteAllBytes)\(')([A-Za-z]:\\[^']*)'/g;

/**
 * Runs each host module session of a simulated host as a real `pwsh` executing the session script the
 * operator sent (and so the module it delivered), with `C:` mapped to the host's folder and the shims
 * (assets/pwsh) answering from this host's model over a loopback endpoint.
 */
export class PowerShellEngine {
  readonly files: DiskFileSystem;
  private readonly children = new Set<ChildProcess>();
  private rpc: ShimRpcServer | undefined;
  private rebootSoon: (() => void) | undefined;

  constructor(
    private readonly o: PowerShellEngineOptions,
    address: string,
  ) {
    mkdirSync(o.dir, { recursive: true });
    this.files = new DiskFileSystem(join(mkdtempSync(join(o.dir, `${address}-`)), 'C'));
  }

  /** Serves the shims from `model`; `reboot` restarts the host. */
  async start(model: WindowsModel, address: string, reboot: () => void): Promise<void> {
    const tar = join(this.files.nativePath('C:\\Windows\\System32'), 'tar.exe');
    writeFileSync(tar, TAR_EXE);
    chmodSync(tar, 0o755);
    const hooks = { reboot: () => this.scheduleReboot(reboot) };
    const calls = [...serviceCalls(model), ...systemCalls(model, hooks), ...networkCalls(model)];
    this.rpc = new ShimRpcServer(address, new Map(calls));
    await this.rpc.start();
  }

  /** The host loses power: every session's processes end at once. */
  powerOff(): void {
    for (const child of this.children) killSession(child);
  }

  async stop(): Promise<void> {
    this.powerOff();
    await this.rpc?.close();
  }

  /**
   * `shutdown /r /t 3`: the host goes down once the answer in flight is out (the next result line), or
   * after the 3 s the command names, whichever is first.
   */
  private scheduleReboot(reboot: () => void): void {
    let done = false;
    const once = (): void => {
      if (done) return;
      done = true;
      this.rebootSoon = undefined;
      clearTimeout(timer);
      reboot();
    };
    const timer = setTimeout(once, 3000);
    this.rebootSoon = () => setTimeout(once, 20);
  }

  /** One session: `script` is the decoded -EncodedCommand; stdin, stdout, stderr and exit go through. */
  serve(channel: ServerChannel, script: string, hostname: string): void {
    const rpc = this.rpc;
    if (!rpc) throw new Error('the PowerShell engine is not started');
    const mapped = script.replace(
      NET_FILE_LITERAL,
      (_, call: string, path: string) => `${call}${this.files.nativePath(path)}'`,
    );
    const child = spawn(
      this.o.pwsh,
      [
        '-NoProfile',
        '-NonInteractive',
        '-File',
        HARNESS_FILE,
        '-Root',
        this.files.root,
        '-Rpc',
        rpc.url,
        '-ComputerName',
        hostname,
      ],
      {
        cwd: this.files.root,
        env: {
          ...process.env,
          POWERSHELL_TELEMETRY_OPTOUT: '1',
          POWERSHELL_UPDATECHECK: 'Off',
          WMCO_SIM_TOKEN: rpc.token,
          WMCO_SIM_SCRIPT: Buffer.from(mapped).toString('base64'),
        },
        stdio: 'pipe',
        // A process group of its own: killSession ends the launcher and the PowerShell it started.
        detached: true,
      },
    );
    this.children.add(child);
    this.pipe(channel, child);
  }

  private pipe(channel: ServerChannel, child: ChildProcess): void {
    let open = true;
    channel.on('data', (d: Buffer) => child.stdin?.write(d));
    channel.on('end', () => child.stdin?.end());
    channel.once('close', () => {
      open = false;
      endSession(child);
    });
    child.stdin?.on('error', () => undefined);
    child.stdout?.on('data', (d: Buffer) => {
      if (!open) return;
      channel.write(d);
      if (d.includes(SESSION_RESULT_PREFIX)) this.rebootSoon?.();
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (open) channel.stderr.write(d);
    });
    child.once('error', (err) => {
      this.children.delete(child);
      if (!open) return;
      channel.stderr.write(`pwsh could not start: ${err.message}\r\n`);
      channel.exit(1);
      channel.end();
    });
    child.once('close', (code) => {
      this.children.delete(child);
      if (!open) return;
      channel.exit(code ?? 1);
      channel.end();
    });
  }
}
