import { str, type JsonObject } from './json.js';
import { AGE, col, CREATED_AT, list, NAME, obj, type Column } from './table-cells.js';

// kube-apiserver's printers for RBAC kinds, and the apiextensions table for CRDs (Name, Created At).

/** rbac.SubjectsStrings: users, groups, and service accounts as `namespace/name`. */
function subjects(o: JsonObject, kind: string): string {
  return list(o['subjects'])
    .filter((s) => s['kind'] === kind)
    .map((s) =>
      kind === 'ServiceAccount' ? `${str(s['namespace']) ?? ''}/${str(s['name']) ?? ''}` : str(s['name']),
    )
    .join(', ');
}

const BINDING: readonly Column[] = [
  NAME,
  col('Role', (o) => `${str(obj(o, 'roleRef')['kind']) ?? ''}/${str(obj(o, 'roleRef')['name']) ?? ''}`),
  AGE,
  col('Users', (o) => subjects(o, 'User'), 1),
  col('Groups', (o) => subjects(o, 'Group'), 1),
  col('ServiceAccounts', (o) => subjects(o, 'ServiceAccount'), 1),
];

const RBAC = 'rbac.authorization.k8s.io';

export const ACCESS_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  [`${RBAC}/Role`]: [NAME, CREATED_AT],
  [`${RBAC}/ClusterRole`]: [NAME, CREATED_AT],
  [`${RBAC}/RoleBinding`]: BINDING,
  [`${RBAC}/ClusterRoleBinding`]: BINDING,
  'apiextensions.k8s.io/CustomResourceDefinition': [NAME, CREATED_AT],
};
