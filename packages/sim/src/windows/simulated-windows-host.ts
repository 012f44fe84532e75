import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import ssh2, { type ParsedKey, type Connection, type ServerChannel } from 'ssh2';

const { Server } = ssh2;
import { defaultEvaluators } from './evaluate/default-evaluators.js';
import type { EvaluatorRegistry } from './evaluate/evaluator-registry.js';
import { DEFAULT_HOST_COSTS, LinkClock, type HostCosts, type HostFaults } from './host-costs.js';
import { serveExec } from './exec-session.js';
import type { HostInvocation, HostShellContext } from './host-shell.js';
import { takenByFault } from './exec-faults.js';
import { isSilentAt, silenceSocket } from './host-faults.js';
import { HostListener } from './host-listener.js';
import { serveSftp } from './sftp-server.js';
import { prefetchStagedArchive } from './staged-archive.js';
import { authenticate, generateEd25519KeyPair, parseKeyOrThrow, type AuthPolicy } from './ssh-auth.js';
import { newHostStats, type HostStats } from './host-stats.js';
import { WindowsModel, type WindowsModelOptions } from './windows-model.js';
import { PowerShellEngine, type PowerShellEngineOptions } from './pwsh/powershell-engine.js';

export interface SimulatedWindowsHostOptions extends WindowsModelOptions {
  /** OpenSSH public key line (`ssh-ed25519 AAAA...`) of the operator's key. */
  readonly authorizedKey: string;
  readonly username?: string;
  /** Loopback address to listen on; port 22 when it can bind there, else an ephemeral port. */
  readonly address: string;
  /** Listen on this port instead (0: an ephemeral one), as a host whose SSH server is not on 22. */
  readonly port?: number;
  readonly costs?: Partial<HostCosts>;
  /** What answers `observe`'s `evaluate` scripts; `defaultEvaluators()` when not given. */
  readonly evaluators?: EvaluatorRegistry;
  /** Called for every command the host does not model (also kept in `unsupportedCommands`). */
  readonly log?: (message: string) => void;
  /**
   * Run every host module session as a real `pwsh` executing the module the operator delivered, with the
   * host's files on disk (the PowerShell engine, pwsh/powershell-engine.ts); absent: the TypeScript model.
   */
  readonly powershell?: PowerShellEngineOptions;
}

/** The software version Windows Server 2022's OpenSSH server sends (`SSH-2.0-<this>`). */
export const WINDOWS_OPENSSH_IDENT = 'OpenSSH_for_Windows_8.1';
/** ssh2 keeps a server connection's TCP socket in `_sock`; faults need the socket itself. */
function socketOf(conn: Connection): Socket {
  return (conn as unknown as { _sock: Socket })._sock;
}

function newHostKey(): string {
  return generateEd25519KeyPair().private;
}

/** A Windows host behind a real SSH server (ssh2) on its own loopback address. */
export class SimulatedWindowsHost {
  readonly model: WindowsModel;
  readonly costs: HostCosts;
  faults: HostFaults = {};
  readonly unsupportedCommands: string[] = [];
  /**
   * Every host module operation this host ran, oldest first, with the scripts each observe evaluated
   * (the last 1000), so a test can assert on exactly what ran on the host.
   */
  readonly invocations: HostInvocation[] = [];
  /** Every distinct exec command line received (the adapter sends one form per module version). */
  readonly commandLines = new Set<string>();
  /** Counters: PowerShell starts, exec round trips, SFTP requests, bytes uploaded (host-stats.ts). */
  readonly stats: HostStats = newHostStats();
  private hostKey = newHostKey();
  /** Where the SSH server listens (undefined while the host is down). */
  private listener: HostListener | undefined;
  private readonly connections = new Set<Connection>();
  private readonly link: LinkClock;
  private boundPort = 22;
  private rebooting: Promise<void> | undefined;
  private rebootStep: string | undefined;
  private readonly auth: AuthPolicy;
  /** administrators_authorized_keys: replaced by `authorizeKeys` (an admin installing a new key). */
  private authorizedKeys: ParsedKey[];
  private readonly shell: HostShellContext;
  private readonly engine: PowerShellEngine | undefined;

  private constructor(private readonly o: SimulatedWindowsHostOptions) {
    this.engine = o.powershell ? new PowerShellEngine(o.powershell, o.address) : undefined;
    // The host's address on the (loopback) network is its primary IPv4 unless told otherwise.
    this.model = new WindowsModel({
      ipv4: o.address,
      ...o,
      ...(this.engine ? { files: this.engine.files } : {}),
    });
    this.authorizedKeys = [parseKeyOrThrow(o.authorizedKey)];
    this.costs = { ...DEFAULT_HOST_COSTS, ...o.costs };
    this.model.scm.serviceStartMs = this.costs.serviceStartMs;
    this.model.scm.serviceStopMs = this.costs.serviceStopMs ?? 0;
    this.model.scm.deletion.deleteMs = this.costs.serviceDeleteMs ?? 0;
    this.model.scm.startTimeoutMs = this.costs.serviceStartTimeoutMs ?? this.model.scm.startTimeoutMs;
    this.link = new LinkClock(this.costs);
    this.auth = {
      username: o.username ?? 'Administrator',
      authorizedKeys: () => this.authorizedKeys,
      refuse: () => this.faults.refuseAuthentication === true,
      offered: (fingerprint) => {
        this.stats.keysOffered[fingerprint] = (this.stats.keysOffered[fingerprint] ?? 0) + 1;
      },
    };
    this.shell = {
      model: this.model,
      costs: this.costs,
      faults: () => this.faults,
      stats: this.stats,
      unsupported: (command) => {
        this.unsupportedCommands.push(command);
        o.log?.(`simulated host ${o.address}: unsupported command: ${command.slice(0, 200)}`);
      },
      reboot: () => this.reboot(),
      dropConnections: () => this.connections.forEach((c) => socketOf(c).destroy()),
      evaluators: o.evaluators ?? defaultEvaluators(),
      record: (invocation) => {
        this.invocations.push(invocation);
        if (this.invocations.length > 1000) this.invocations.shift();
      },
    };
  }

  static async start(o: SimulatedWindowsHostOptions): Promise<SimulatedWindowsHost> {
    const host = new SimulatedWindowsHost(o);
    await host.engine?.start(host.model, o.address, () => void host.reboot());
    await host.listen(true);
    return host;
  }

  /** Replaces the authorized keys, as an admin editing administrators_authorized_keys would. */
  authorizeKeys(publicKeyLines: readonly string[]): void {
    this.authorizedKeys = publicKeyLines.map((l) => parseKeyOrThrow(l));
  }

  get host(): string {
    return this.o.address;
  }

  get port(): number {
    return this.boundPort;
  }

  /** Whether the host is up: its SSH server listens and no reboot is under way. */
  get up(): boolean {
    return this.listener !== undefined && this.rebooting === undefined;
  }

  /** Where a reboot under way is (for a failing test's log); undefined when none is. */
  get rebootUnderWay(): string | undefined {
    return this.rebootStep;
  }

  /** SSH connections currently open to this host. */
  get openConnections(): number {
    return this.connections.size;
  }

  /** The host key's public half, SSH wire format in base64 (what a pin stores). */
  get hostKeyBase64(): string {
    return parseKeyOrThrow(this.hostKey).getPublicSSH().toString('base64');
  }

  private async listen(first: boolean): Promise<void> {
    // Windows Server 2022's OpenSSH announces itself so; clients (ssh2 among them) size SFTP writes by it.
    const ssh = new Server({ hostKeys: [this.hostKey], ident: WINDOWS_OPENSSH_IDENT }, (conn) =>
      this.accept(conn),
    );
    // Not root, or port 22 taken on this address: an ephemeral port of our own. Back from a reboot: the same.
    const ports = !first ? [this.boundPort] : this.o.port !== undefined ? [this.o.port] : [22, 0];
    this.listener = await HostListener.open(this.o.address, ports, ssh);
    this.boundPort = this.listener.port;
  }

  private async unlisten(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    // Going down is abrupt (a reboot or power-off sends no SSH goodbye); destroying also frees a
    // partitioned socket that would never read the peer's FIN.
    for (const c of this.connections) socketOf(c).destroy();
    this.connections.clear();
    await listener?.close();
  }

  /**
   * The network between operator and host goes silent: open connections neither deliver nor close
   * (no FIN, no RST), as when a link or a VM's NIC goes down. Only keepalives can notice.
   */
  partition(): void {
    for (const c of this.connections) silenceSocket(socketOf(c));
  }

  /** A new host key from now on (the operator must refuse it). */
  async rotateHostKey(): Promise<void> {
    this.hostKey = newHostKey();
    await this.unlisten();
    await this.listen(false);
  }

  /** Goes down (connections drop), stays down for `rebootMs`, boots, starts auto-start services. */
  reboot(): Promise<void> {
    this.rebooting ??= (async () => {
      this.stats.reboots++;
      this.engine?.powerOff();
      try {
        this.rebootStep = 'closing connections';
        await this.unlisten();
        this.model.halt();
        this.rebootStep = 'down';
        await sleep(this.costs.rebootMs);
        this.rebootStep = 'booting';
        await this.model.boot();
        this.rebootStep = 'listening again';
        await this.listen(false);
      } catch (err) {
        // The host stays down (as a machine that fails to boot); the step says why.
        this.rebootStep += ` failed: ${err instanceof Error ? err.message : String(err)}`;
        throw err;
      }
      this.rebootStep = undefined;
      this.rebooting = undefined;
    })();
    return this.rebooting;
  }

  async stop(): Promise<void> {
    await this.rebooting?.catch(() => undefined);
    this.model.halt();
    await this.unlisten();
    await this.engine?.stop();
  }

  private accept(conn: Connection): void {
    this.stats.connectionsAccepted++;
    this.connections.add(conn);
    // Nagle off on the server end too (simulated-world notes §C.2: 88 ms vs 0.4 ms per exec).
    (conn as unknown as { setNoDelay(on: boolean): void }).setNoDelay(true);
    conn.on('close', () => this.connections.delete(conn));
    conn.on('error', () => undefined);
    if (isSilentAt(this.faults, 'handshake')) {
      // Accepted, then nothing more: the client's handshake deadline is all that ends it.
      socketOf(conn).on('error', () => undefined);
      silenceSocket(socketOf(conn));
      return;
    }
    conn.on('authentication', (ctx) => authenticate(ctx, this.auth));
    conn.on('ready', () => {
      conn.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('exec', (acceptExec, _reject, info) => this.exec(acceptExec(), info.command));
        session.on('sftp', (acceptSftp) => {
          serveSftp(acceptSftp(), this.model.files, {
            delay: (bytes) => {
              this.stats.sftpRequests++;
              return bytes > 0 || this.costs.latencyMs > 0 ? this.link.delayFor(bytes) : 0;
            },
            onWrite: (bytes) => this.onUploadBytes(bytes, conn),
            onRenamed: (path) => prefetchStagedArchive(this.model, path),
            silent: () => isSilentAt(this.faults, 'sftp'),
          });
        });
      });
    });
  }

  private onUploadBytes(bytes: number, conn: Connection): void {
    this.stats.writes++;
    this.stats.bytesReceived += bytes;
    const left = this.faults.dropAfterUploadBytes;
    if (left === undefined) return;
    if (bytes >= left) {
      delete this.faults.dropAfterUploadBytes;
      // The link dies mid-upload: no goodbye, the socket is destroyed.
      socketOf(conn).destroy();
      return;
    }
    this.faults.dropAfterUploadBytes = left - bytes;
  }

  private exec(channel: ServerChannel, command: string): void {
    this.commandLines.add(command);
    if (takenByFault(channel, this.faults, this.stats)) return;
    const engine = this.engine;
    serveExec(channel, command, {
      shell: this.shell,
      stats: this.stats,
      costs: this.costs,
      ...(engine
        ? {
            sessions: (ch: ServerChannel, script: string): void => {
              this.stats.powershellStarts++;
              engine.serve(ch, script, this.model.hostname);
            },
          }
        : {}),
    });
  }
}
