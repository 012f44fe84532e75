import { z } from 'zod';
import type { NodeVariable, WindowsServiceSpec } from '../provider/types/windows-service-spec.js';

/** One entry of the ConfigMap's `files` (always empty upstream today). */
export interface ServicesFile {
  readonly path: string;
  readonly checksum: string;
}

/** The content of a `windows-services-<version>` ConfigMap (reference §1.4). */
export interface ServicesData {
  readonly services: readonly WindowsServiceSpec[];
  readonly files: readonly ServicesFile[];
  /** Proxy variables for the hosts; absent when there are none (upstream omits the key). */
  readonly environmentVars?: Readonly<Record<string, string>>;
  readonly watchedEnvironmentVars: readonly string[];
}

export const SERVICES_CONFIGMAP_PREFIX = 'windows-services-';
export const WATCHED_ENVIRONMENT_VARS: readonly string[] = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];

const nodeVarJson = (v: NodeVariable): object => ({ name: v.name, nodeObjectJsonPath: v.jsonPath });
const nonEmpty = <T>(a: readonly T[] | undefined): a is readonly T[] => a !== undefined && a.length > 0;

/**
 * A service in upstream's JSON shape and key order. QUIRK 2 kept on purpose: upstream's pre-script
 * `NodeArgs` field has no json tag, so its key is literally `NodeArgs` and it is `null` when empty; we
 * write the same bytes, so upstream tooling (and a diff against an upstream ConfigMap) reads ours.
 */
export function serviceToJson(s: WindowsServiceSpec): object {
  return {
    name: s.name,
    path: s.command,
    ...(nonEmpty(s.nodeVariables) ? { nodeVariablesInCommand: s.nodeVariables.map(nodeVarJson) } : {}),
    ...(nonEmpty(s.preScripts)
      ? {
          powershellPreScripts: s.preScripts.map((p) => ({
            ...(p.variableName ? { variableName: p.variableName } : {}),
            path: p.script,
            NodeArgs: nonEmpty(p.nodeArgs) ? p.nodeArgs.map(nodeVarJson) : null,
          })),
        }
      : {}),
    ...(nonEmpty(s.dependencies) ? { dependencies: s.dependencies } : {}),
    bootstrap: s.bootstrap,
    priority: s.priority,
  };
}

/** The ConfigMap `data` for `content`, every value a JSON string. */
export function renderServicesData(content: ServicesData): Record<string, string> {
  const env = content.environmentVars;
  return {
    services: JSON.stringify(content.services.map(serviceToJson)),
    files: JSON.stringify(content.files),
    ...(env && Object.keys(env).length > 0 ? { environmentVars: JSON.stringify(env) } : {}),
    watchedEnvironmentVars: JSON.stringify(content.watchedEnvironmentVars),
  };
}

/** The whole immutable ConfigMap object. */
export function servicesConfigMap(version: string, namespace: string, content: ServicesData): object {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${SERVICES_CONFIGMAP_PREFIX}${version}`, namespace },
    immutable: true,
    data: renderServicesData(content),
  };
}

const nodeVarSchema = z
  .object({ name: z.string(), nodeObjectJsonPath: z.string() })
  .strict()
  .transform((v): NodeVariable => ({ name: v.name, jsonPath: v.nodeObjectJsonPath }));
type ServiceJson = {
  name: string;
  path: string;
  nodeVariablesInCommand?: NodeVariable[] | null | undefined;
  powershellPreScripts?:
    | { variableName?: string | undefined; path: string; NodeArgs?: NodeVariable[] | null | undefined }[]
    | null
    | undefined;
  dependencies?: string[] | null | undefined;
  bootstrap: boolean;
  priority: number;
};

const list = <T>(a: readonly T[] | null | undefined): readonly T[] | undefined =>
  a && a.length > 0 ? a : undefined;

function fromJson(s: ServiceJson): WindowsServiceSpec {
  const dependencies = list(s.dependencies);
  const nodeVariables = list(s.nodeVariablesInCommand);
  const preScripts = list(s.powershellPreScripts)?.map((p) => {
    const nodeArgs = list(p.NodeArgs);
    return {
      script: p.path,
      ...(p.variableName ? { variableName: p.variableName } : {}),
      ...(nodeArgs ? { nodeArgs } : {}),
    };
  });
  return {
    name: s.name,
    command: s.path,
    bootstrap: s.bootstrap,
    priority: s.priority,
    ...(dependencies ? { dependencies } : {}),
    ...(nodeVariables ? { nodeVariables } : {}),
    ...(preScripts ? { preScripts } : {}),
  };
}

const serviceSchema = z
  .object({
    name: z.string(),
    path: z.string(),
    nodeVariablesInCommand: z.array(nodeVarSchema).nullish(),
    powershellPreScripts: z
      .array(
        z
          .object({
            variableName: z.string().optional(),
            path: z.string(),
            NodeArgs: z.array(nodeVarSchema).nullish(),
          })
          .strict(),
      )
      .nullish(),
    dependencies: z.array(z.string()).nullish(),
    bootstrap: z.boolean(),
    priority: z.number().int().min(0),
  })
  .strict()
  .transform(fromJson);

function parseKey<T>(key: string, raw: string, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new Error(`services ConfigMap key ${key}: not JSON (${(err as Error).message})`, { cause: err });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `services ConfigMap key ${key}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

const KNOWN_KEYS = new Set(['services', 'files', 'environmentVars', 'watchedEnvironmentVars']);
const optionalJson = (raw: string | undefined): string => (raw === undefined || raw === '' ? 'null' : raw);

/**
 * Parses ConfigMap `data`. `services` and `files` are required; the other two may be missing, `""` or
 * `null`. Unlike upstream (QUIRK 4, which lets one unknown key through), every unknown key is an error.
 */
export function parseServicesData(data: Readonly<Record<string, string>>): ServicesData {
  const unknown = Object.keys(data).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) throw new Error(`services ConfigMap has unknown keys: ${unknown.join(', ')}`);
  const required = (key: string): string => {
    const raw = data[key];
    if (raw === undefined) throw new Error(`services ConfigMap is missing the ${key} key`);
    return raw;
  };
  const services = parseKey('services', required('services'), z.array(serviceSchema));
  const files = parseKey(
    'files',
    required('files'),
    z.array(z.object({ path: z.string(), checksum: z.string() }).strict()),
  );
  const env = parseKey(
    'environmentVars',
    optionalJson(data.environmentVars),
    z.record(z.string(), z.string()).nullable(),
  );
  const watched = parseKey(
    'watchedEnvironmentVars',
    optionalJson(data.watchedEnvironmentVars),
    z.array(z.string()).nullable(),
  );
  return {
    services,
    files,
    ...(env && Object.keys(env).length > 0 ? { environmentVars: env } : {}),
    watchedEnvironmentVars: watched ?? [],
  };
}
