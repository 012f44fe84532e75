import { GceError, notFound } from './gce-errors.js';
import type { GceJson } from './gce-json.js';
import { GceState } from './gce-state.js';

export interface GceRequest {
  readonly method: string;
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  readonly body: unknown;
}

interface Route {
  readonly method: string;
  /** The compute API method name, for fault injection and call counting. */
  readonly name: string;
  readonly path: RegExp;
  readonly run: (state: GceState, json: GceJson, req: GceRequest) => unknown;
}

const P = '^/compute/v1/projects/([^/]+)';
const LABEL_KEY = /^[a-z][a-z0-9_-]{0,62}$/;
const LABEL_VALUE = /^[a-z0-9_-]{0,63}$/;

function instanceAt(state: GceState, zone: string, name: string): ReturnType<GceState['find']> & object {
  const i = state.find(zone, name);
  if (!i) throw notFound(`projects/${state.project}/zones/${zone}/instances/${name}`);
  return i;
}

function refuseFilter(query: URLSearchParams): void {
  // The simulated API does not evaluate list filters; refuse rather than return unfiltered results.
  if ((query.get('filter') ?? '') !== '')
    throw new GceError(400, 'invalid', 'simulated GCE: list filters are not supported');
}

function validLabels(body: unknown): { labels: Record<string, string>; fingerprint: string } {
  const b = (body ?? {}) as { labels?: unknown; labelFingerprint?: unknown };
  if (typeof b.labelFingerprint !== 'string' || b.labelFingerprint === '')
    throw new GceError(400, 'required', "Required field 'labelFingerprint' not specified");
  const labels = (b.labels ?? {}) as Record<string, unknown>;
  const entries = Object.entries(labels);
  if (entries.length > 64) throw new GceError(400, 'invalid', 'A resource can have at most 64 labels');
  for (const [k, v] of entries) {
    if (!LABEL_KEY.test(k) || typeof v !== 'string' || !LABEL_VALUE.test(v))
      throw new GceError(400, 'invalid', `Invalid value for field 'labels': '${k}'`);
  }
  return { labels: labels as Record<string, string>, fingerprint: b.labelFingerprint };
}

const routes: readonly Route[] = [
  {
    method: 'GET',
    name: 'instances.aggregatedList',
    path: new RegExp(`${P}/aggregated/instances$`),
    run: (state, json, req) => {
      refuseFilter(req.query);
      const items: Record<string, unknown> = {};
      for (const i of state.instances.values()) {
        const scope = (items[`zones/${i.zone}`] ??= { instances: [] }) as { instances: unknown[] };
        scope.instances.push(json.instance(i));
      }
      return {
        kind: 'compute#instanceAggregatedList',
        id: `projects/${state.project}/aggregated/instances`,
        items,
      };
    },
  },
  {
    method: 'GET',
    name: 'instances.list',
    path: new RegExp(`${P}/zones/([^/]+)/instances$`),
    run: (state, json, req) => {
      refuseFilter(req.query);
      const zone = req.params[1] ?? '';
      const items = [...state.instances.values()].filter((i) => i.zone === zone).map((i) => json.instance(i));
      return { kind: 'compute#instanceList', id: `projects/${state.project}/zones/${zone}/instances`, items };
    },
  },
  {
    method: 'GET',
    name: 'instances.get',
    path: new RegExp(`${P}/zones/([^/]+)/instances/([^/]+)$`),
    run: (state, json, req) => json.instance(instanceAt(state, req.params[1] ?? '', req.params[2] ?? '')),
  },
  {
    method: 'POST',
    name: 'instances.setLabels',
    path: new RegExp(`${P}/zones/([^/]+)/instances/([^/]+)/setLabels$`),
    run: (state, json, req) => {
      const zone = req.params[1] ?? '';
      const i = instanceAt(state, zone, req.params[2] ?? '');
      const { labels, fingerprint } = validLabels(req.body);
      state.beforeSetLabels?.(i);
      // The fingerprint is a bytes field: clients send it back in standard or URL-safe base64 (gcloud's
      // apitools re-encodes it URL-safe), so compare the bytes, as GCE does.
      if (!Buffer.from(fingerprint, 'base64').equals(Buffer.from(GceState.fingerprint(i), 'base64')))
        throw new GceError(
          412,
          'conditionNotMet',
          'Labels fingerprint either invalid or resource labels have changed',
          {
            location: 'If-Match',
            locationType: 'header',
          },
        );
      const changes: Record<string, string | undefined> = { ...labels };
      for (const k of i.tags.keys()) if (!(k in labels)) changes[k] = undefined;
      i.setTags(changes);
      return json.operation(state.newOperation(zone, 'setLabels', i, json.instanceUrl(i)));
    },
  },
  {
    method: 'GET',
    name: 'zoneOperations.get',
    path: new RegExp(`${P}/zones/([^/]+)/operations/([^/]+)$`),
    run: (state, json, req) => operationDone(state, json, req),
  },
  {
    method: 'POST',
    name: 'zoneOperations.wait',
    path: new RegExp(`${P}/zones/([^/]+)/operations/([^/]+)/wait$`),
    run: (state, json, req) => operationDone(state, json, req),
  },
  {
    method: 'GET',
    name: 'firewalls.list',
    path: new RegExp(`${P}/global/firewalls$`),
    run: (state, _json, req) => {
      refuseFilter(req.query);
      return {
        kind: 'compute#firewallList',
        items: state.firewalls.map((f) => ({
          kind: 'compute#firewall',
          direction: 'INGRESS',
          disabled: false,
          ...f,
        })),
      };
    },
  },
];

/** Operations finish by the time anyone asks (setLabels is quick on GCE too); a poll then reads DONE. */
function operationDone(state: GceState, json: GceJson, req: GceRequest): unknown {
  const key = `${req.params[1] ?? ''}/${req.params[2] ?? ''}`;
  const op = state.operations.get(key);
  if (!op) throw notFound(`projects/${state.project}/zones/${key.replace('/', '/operations/')}`);
  op.done = true;
  return json.operation(op);
}

/** Finds the route for a request; the first capture of every path is the project. */
export function matchRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const m = route.path.exec(path);
    if (m && route.method === method) return { route, params: m.slice(1) };
  }
  return undefined;
}
