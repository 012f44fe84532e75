import { ArmError } from './arm-errors.js';
import { nicJson, vmJson } from './arm-json.js';
import type { ArmState } from './arm-state.js';

export interface ArmRequest {
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** The simulated endpoint's base URL, for Azure-AsyncOperation headers. */
  readonly base: string;
}

export interface ArmAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

interface Route {
  readonly method: string;
  /** The ARM operation (`Microsoft.Compute/virtualMachines/read`...), for faults and call counts. */
  readonly name: string;
  readonly path: RegExp;
  readonly run: (state: ArmState, req: ArmRequest) => ArmAnswer;
}

const RG = '^/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers';

function vmAt(state: ArmState, req: ArmRequest): ReturnType<ArmState['vms']['get']> & object {
  const name = req.params[2] ?? '';
  const vm = state.vms.get(name.toLowerCase());
  if (!vm)
    throw new ArmError(
      404,
      'ResourceNotFound',
      `The Resource 'Microsoft.Compute/virtualMachines/${name}' under resource group '${state.resourceGroup}' was not found.`,
    );
  return vm;
}

/** ARM tag rules: name ≤ 512 characters without `<>%&\\?/`, value ≤ 256. */
function validTag(k: string, v: string): boolean {
  return k.length <= 512 && v.length <= 256 && !/[<>%&\\?/]/.test(k);
}

function tagsOf(body: unknown): Record<string, string> {
  const tags = (body as { tags?: unknown } | undefined)?.tags;
  if (typeof tags !== 'object' || tags === null)
    throw new ArmError(400, 'InvalidRequestContent', 'The request content was invalid: tags expected.');
  const entries = Object.entries(tags as Record<string, unknown>);
  if (entries.length > 50) throw new ArmError(400, 'InvalidTagCount', 'A resource can have at most 50 tags.');
  const bad = entries.find(([k, v]) => typeof v !== 'string' || !validTag(k, v));
  if (bad)
    throw new ArmError(
      400,
      'InvalidTagNameCharacters',
      `The tag name '${bad[0]}' has invalid characters or length.`,
    );
  return tags as Record<string, string>;
}

const routes: readonly Route[] = [
  {
    method: 'GET',
    name: 'Microsoft.Compute/virtualMachines/read',
    path: new RegExp(`${RG}/Microsoft.Compute/virtualMachines$`, 'i'),
    run: (state, req) => {
      const expand = req.query.get('$expand') === 'instanceView';
      return { status: 200, body: { value: [...state.vms.values()].map((vm) => vmJson(state, vm, expand)) } };
    },
  },
  {
    method: 'GET',
    name: 'Microsoft.Compute/virtualMachines/read',
    path: new RegExp(`${RG}/Microsoft.Compute/virtualMachines/([^/]+)$`, 'i'),
    run: (state, req) => ({
      status: 200,
      body: vmJson(state, vmAt(state, req), req.query.get('$expand') === 'instanceView'),
    }),
  },
  {
    method: 'PATCH',
    name: 'Microsoft.Compute/virtualMachines/write',
    path: new RegExp(`${RG}/Microsoft.Compute/virtualMachines/([^/]+)$`, 'i'),
    run: (state, req) => {
      const vm = vmAt(state, req);
      const tags = tagsOf(req.body);
      const changes: Record<string, string | undefined> = { ...tags };
      for (const k of vm.tags.keys()) if (!(k in tags)) changes[k] = undefined;
      vm.setTags(changes);
      const op = state.newOperation();
      const url = `${req.base}/subscriptions/${state.subscriptionId}/providers/Microsoft.Compute/locations/${state.location}/operations/${op.id}?api-version=${req.query.get('api-version') ?? ''}`;
      const body = vmJson(state, vm, false);
      return {
        status: 200,
        body: { ...body, properties: { ...(body['properties'] as object), provisioningState: 'Updating' } },
        headers: { 'azure-asyncoperation': url },
      };
    },
  },
  {
    method: 'GET',
    name: 'Microsoft.Compute/locations/operations/read',
    path: /^\/subscriptions\/([^/]+)\/providers\/Microsoft.Compute\/locations\/([^/]+)\/operations\/([^/]+)$/i,
    run: (state, req) => {
      const op = state.operations.get(req.params[2] ?? '');
      if (!op) throw new ArmError(404, 'NotFound', 'The operation was not found.');
      const done = op.pending <= 0;
      op.pending -= 1;
      return {
        status: 200,
        body: {
          name: op.id,
          startTime: op.started,
          status: done ? 'Succeeded' : 'InProgress',
          ...(done ? { endTime: new Date().toISOString() } : {}),
        },
      };
    },
  },
  {
    method: 'GET',
    name: 'Microsoft.Network/networkInterfaces/read',
    path: new RegExp(`${RG}/Microsoft.Network/networkInterfaces/([^/]+)-nic$`, 'i'),
    run: (state, req) => ({ status: 200, body: nicJson(state, vmAt(state, req)) }),
  },
];

export function matchArmRoute(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const m = route.path.exec(path);
    if (m && route.method === method) return { route, params: m.slice(1) };
  }
  return undefined;
}
