import { PodLogs } from './pod-logs.js';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Authenticator, serviceAccountUser } from './authn.js';
import { installBuiltinHooks } from './builtin-hooks.js';
import { Faults } from './faults.js';
import { RequestLog } from './request-log.js';
import { handleRequest } from './http-handler.js';
import { renderKubeconfig } from './kubeconfig.js';
import { ObjectStore } from './object-store.js';
import { ObjectWriter } from './object-writer.js';
import type { KubeletClient } from './node-proxy.js';
import { ClusterCa, type KeyAndCert } from './pki.js';
import { RequestAuthorizer } from './request-authorizer.js';
import type { RequestUser } from './request-user.js';
import type { ServerContext } from './server-context.js';
import { TypeRegistry } from './type-registry.js';
import { WatchRegistry } from './watch-stream.js';

export interface SimApiServerOptions {
  /** Evaluate RBAC (default off: every authenticated user that is not a node may do everything). */
  readonly rbac?: boolean;
  readonly ca?: ClusterCa;
  readonly host?: string;
}

/** A user of the simulated server with bearer-token credentials. */
export interface SimUser {
  readonly user: RequestUser;
  readonly token: string;
}

/**
 * The simulated Kubernetes API server: HTTPS on loopback with an ephemeral port, a generated CA, bearer
 * token and client-certificate users, and the generic storage and semantics of kube-apiserver.
 */
export class SimApiServer {
  readonly registry = new TypeRegistry();
  readonly store = new ObjectStore();
  readonly writer = new ObjectWriter(this.store, this.registry);
  readonly authn = new Authenticator();
  readonly faults = new Faults();
  /** Every authenticated request (the last 100,000), for tests and benchmarks. */
  readonly requests = new RequestLog();
  readonly watches = new WatchRegistry();
  /** The simulated containers' logs, served at `pods/<name>/log`. */
  readonly podLogs = new PodLogs();
  readonly ctx: ServerContext;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  /** Requests received (a watch counts once), by authenticated user ('' when none): what benchmarks count. */
  readonly requestsByUser = new Map<string, number>();
  readonly admin: SimUser;

  private constructor(
    readonly ca: ClusterCa,
    private readonly server: Server,
    private readonly host: string,
    rbac: boolean,
  ) {
    this.ctx = {
      registry: this.registry,
      store: this.store,
      writer: this.writer,
      watches: this.watches,
      faults: this.faults,
      requests: this.requests,
      authorizer: new RequestAuthorizer(this.store, this.registry, rbac),
      lookupToken: (token) => this.authn.lookupToken(token),
      kubeletClient: () => this.kubeletClient(),
      podLogs: this.podLogs,
    };
    installBuiltinHooks(this.writer, this.registry);
    this.admin = this.addUser('admin', ['system:masters']);
    this.faults.attach({
      dropWatches: () => this.watches.dropAll(),
      restart: (ms) => this.restart(ms),
      compact: () => this.store.compact(),
    });
    server.on('request', (req, res) => {
      const who = this.authn.authenticate(req);
      const name = typeof who === 'object' ? who.name : '';
      this.requestsByUser.set(name, (this.requestsByUser.get(name) ?? 0) + 1);
      void handleRequest({ ctx: this.ctx, authn: this.authn, req, res, host: `${this.host}:${this.port}` });
    });
    server.on('connection', (s: Socket) => {
      s.setNoDelay(true);
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(opts: SimApiServerOptions = {}): Promise<SimApiServer> {
    const ca = opts.ca ?? (await ClusterCa.create());
    const host = opts.host ?? '127.0.0.1';
    const serving = await ca.serving(['localhost'], [host]);
    const server = createServer({
      key: serving.keyPem,
      cert: serving.certPem,
      ca: [ca.certPem],
      requestCert: true,
      rejectUnauthorized: false,
    });
    // kube-apiserver keeps idle connections 90 s (IdleTimeout); Node's 5 s raced pooled clients (FIDELITY.md).
    server.keepAliveTimeout = 90_000;
    const sim = new SimApiServer(ca, server, host, opts.rbac ?? false);
    await sim.listen(0);
    return sim;
  }

  private async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `https://${this.host}:${this.port}`;
  }

  /** TCP connections open now (kept-alive ones included). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** The API server's kubelet client certificate (`--kubelet-client-certificate`), issued on first use. */
  private kubeletClientCert: Promise<KeyAndCert> | undefined;
  private async kubeletClient(): Promise<KubeletClient> {
    this.kubeletClientCert ??= this.ca.client('system:kube-apiserver', ['kube-master']);
    return { cert: await this.kubeletClientCert, caPem: this.ca.certPem };
  }

  get caPem(): string {
    return this.ca.certPem;
  }

  set rbac(on: boolean) {
    this.ctx.authorizer.rbac = on;
  }

  /** Registers a bearer-token user (random token unless given). */
  addUser(name: string, groups: readonly string[], token = randomBytes(24).toString('base64url')): SimUser {
    const user: RequestUser = { name, groups };
    this.authn.addToken(token, user);
    return { user, token };
  }

  addServiceAccount(namespace: string, name: string, token = randomBytes(24).toString('base64url')): SimUser {
    const user = serviceAccountUser(namespace, name);
    this.authn.addToken(token, user);
    return { user, token };
  }

  kubeconfig(u: SimUser, namespace?: string): string {
    return renderKubeconfig({
      server: this.url,
      caPem: this.caPem,
      user: u.user.name,
      token: u.token,
      ...(namespace ? { namespace } : {}),
    });
  }

  async clientCertKubeconfig(user: string, groups: readonly string[]): Promise<string> {
    const kc = await this.ca.client(user, groups);
    return renderKubeconfig({
      server: this.url,
      caPem: this.caPem,
      user,
      clientCertPem: kc.certPem,
      clientKeyPem: kc.keyPem,
    });
  }

  async writeKubeconfig(file: string, u: SimUser = this.admin): Promise<void> {
    await writeFile(file, this.kubeconfig(u), { mode: 0o600 });
  }

  /** Closes every watch and connection and refuses connections for `refuseMs`, then listens on the same port. */
  async restart(refuseMs: number): Promise<void> {
    this.watches.dropAll();
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
    await sleep(refuseMs);
    await this.listen(this.port);
  }

  async stop(): Promise<void> {
    this.watches.dropAll();
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
