import type { IncomingMessage } from 'node:http';
import { isObject, meta, str, type JsonObject } from './json.js';
import type { ResourceType } from './resource-type.js';
import { fieldValue } from './selectors.js';
import { AGE, BUILTIN_COLUMNS, NAME, type Column } from './table-columns.js';

/** Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), what `kubectl get` shows. */
export function wantsTable(req: IncomingMessage): boolean {
  return /as=Table/.test(req.headers.accept ?? '');
}

/** A CRD's additionalPrinterColumns (simple `.a.b` JSON paths), plus Name and Age as upstream adds them. */
export function printerColumns(t: ResourceType): readonly Column[] {
  const builtin = BUILTIN_COLUMNS[`${t.group}/${t.kind}`];
  if (builtin) return builtin;
  const extra = (t.printerColumns ?? []).map((c): Column => ({
    name: str(c['name']) ?? '',
    type: 'string',
    priority: typeof c['priority'] === 'number' ? c['priority'] : 0,
    cell: (o) => fieldValue(o, (str(c['jsonPath']) ?? '').replace(/^\./, '')),
  }));
  return [NAME, ...extra, ...(extra.some((c) => c.name === 'Age') ? [] : [AGE])];
}

/** What a row carries as `object`, by the includeObject query parameter (default Metadata). */
const ROW_OBJECT: Readonly<Record<string, (o: JsonObject) => JsonObject | undefined>> = {
  None: () => undefined,
  Object: (o) => o,
  Metadata: (o) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta(o) }),
};

function rowObject(o: JsonObject, include: string): JsonObject | undefined {
  return (ROW_OBJECT[include] ?? ROW_OBJECT['Metadata'])?.(o);
}

export interface TableOptions {
  readonly includeObject: string;
  readonly withColumns: boolean;
  readonly listMeta?: JsonObject;
}

export function toTable(t: ResourceType, items: readonly JsonObject[], opts: TableOptions): JsonObject {
  const cols = printerColumns(t);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: opts.listMeta ?? {},
    columnDefinitions: opts.withColumns
      ? cols.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.name === 'Name' ? 'name' : '',
          description: c.name,
          priority: c.priority,
        }))
      : null,
    rows: items.map((o) => {
      const object = rowObject(o, opts.includeObject);
      return { cells: cols.map((c) => c.cell(o)), ...(object ? { object } : {}) };
    }),
  };
}

export function includeObject(q: URLSearchParams): string {
  const v = q.get('includeObject') ?? '';
  return Object.hasOwn(ROW_OBJECT, v) ? v : 'Metadata';
}

export function isTable(v: unknown): boolean {
  return isObject(v) && v['kind'] === 'Table';
}
