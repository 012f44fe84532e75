import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFoundPath } from './non-resource.js';
import type { KeyAndCert } from './pki.js';
import type { AuthzAttributes } from './rbac.js';
import type { RequestUser } from './request-user.js';
import type { ResourceRequest } from './request-info.js';
import type { ServerContext } from './server-context.js';
import { ApiError, errors } from './status.js';

/** What the proxy needs to reach kubelets: the API server's kubelet client certificate and the CA to trust. */
export interface KubeletClient {
  readonly cert: KeyAndCert;
  readonly caPem: string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});

/** True for `/api/v1/nodes/<name>/proxy[/...]`. */
export function isNodeProxy(info: ResourceRequest): boolean {
  const sub = info.subresource;
  return info.group === '' && info.plural === 'nodes' && (sub === 'proxy' || sub.startsWith('proxy/'));
}

/** The verb RBAC sees for a connect request: from the HTTP method (RequestInfoFactory). */
export function proxyVerb(method: string): string {
  const verbs: Readonly<Record<string, string>> = {
    GET: 'get',
    HEAD: 'get',
    POST: 'create',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: 'delete',
  };
  const verb = verbs[method];
  if (verb === undefined) throw errors.methodNotAllowed(`the server does not allow method ${method}`);
  return verb;
}

/** RBAC's view of a node proxy request: `nodes/proxy`, the node's name (without a `:port`). */
export function nodeProxyAttributes(
  info: ResourceRequest,
  user: RequestUser,
  method: string,
  path: string,
): AuthzAttributes {
  return {
    user,
    verb: proxyVerb(method),
    path,
    resource: {
      group: '',
      resource: 'nodes',
      subresource: 'proxy',
      namespace: '',
      name: (info.name ?? '').split(':')[0] ?? '',
    },
  };
}

/**
 * Where the node's kubelet listens: the Node's InternalIP (kube-apiserver's `--kubelet-preferred-address-types`
 * puts it first) and `status.daemonEndpoints.kubeletEndpoint.Port`. A `<name>:<port>` in the URL picks the port.
 */
export function kubeletLocation(ctx: ServerContext, nameAndPort: string): { host: string; port: number } {
  const [name = '', portText] = nameAndPort.split(':');
  const type = ctx.registry.find('', 'v1', 'nodes');
  const node = type === undefined ? undefined : ctx.store.get(type, undefined, name);
  if (node === undefined) throw errors.notFound('nodes', '', name);
  const status = obj(node['status']);
  const port = portText !== undefined ? Number(portText) : publishedPort(status);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw errors.badRequest(`invalid port for node "${name}"`);
  return { host: internalIp(status), port };
}

function internalIp(status: Obj): string {
  const addresses = Array.isArray(status['addresses']) ? (status['addresses'] as unknown[]).map(obj) : [];
  const internal = addresses.find((a) => a['type'] === 'InternalIP')?.['address'];
  if (typeof internal !== 'string')
    throw errors.badRequest('no preferred addresses found; known addresses: []');
  return internal;
}

function publishedPort(status: Obj): number {
  const published = obj(obj(status['daemonEndpoints'])['kubeletEndpoint'])['Port'];
  return typeof published === 'number' ? published : 0;
}

/** Forwards the request to the kubelet and streams its answer back, status and body as they are. */
export function forwardToKubelet(
  req: IncomingMessage,
  res: ServerResponse,
  target: { host: string; port: number; path: string; prefix: string },
  client: KubeletClient,
): Promise<void> {
  const options: RequestOptions = {
    host: target.host,
    port: target.port,
    path: target.path,
    method: req.method ?? 'GET',
    cert: client.cert.certPem,
    key: client.cert.keyPem,
    ca: [client.caPem],
    // kube-apiserver does not check the kubelet's name unless --kubelet-certificate-authority is set.
    checkServerIdentity: () => undefined,
    headers: { accept: req.headers.accept ?? '*/*' },
  };
  return new Promise((resolve, reject) => {
    const out = request(options, (answer) => {
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'content-length', 'x-content-type-options']) {
        const v = answer.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      // A redirect stays behind the proxy, as the proxy transport rewrites it.
      const location = answer.headers.location;
      if (location?.startsWith('/') === true) headers['location'] = `${target.prefix}${location}`;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', reject);
    });
    out.on('error', (e) => reject(new ApiError(500, '', `error trying to reach service: ${e.message}`)));
    req.pipe(out);
  });
}

/**
 * `/api/v1/nodes/<name>/proxy/<path>`: authorized as the `nodes/proxy` subresource with the method's verb,
 * then forwarded to `<path>` on the node's kubelet with the API server's kubelet client certificate.
 */
export async function serveNodeProxy(
  ctx: ServerContext,
  exchange: { req: IncomingMessage; res: ServerResponse; url: URL },
  info: ResourceRequest,
): Promise<void> {
  if (ctx.kubeletClient === undefined) throw notFoundPath();
  const nameAndPort = info.name ?? '';
  const location = kubeletLocation(ctx, nameAndPort);
  const marker = `/proxy`;
  const raw = exchange.url.pathname;
  const at = raw.indexOf(marker, raw.indexOf('/nodes/') + '/nodes/'.length);
  const rest = raw.slice(at + marker.length) || '/';
  const prefix = raw.slice(0, at + marker.length);
  await forwardToKubelet(
    exchange.req,
    exchange.res,
    { ...location, path: `${rest}${exchange.url.search}`, prefix },
    await ctx.kubeletClient(),
  );
}
