import { isMap, isSeq, parseAllDocuments, parseDocument, YAMLSeq, type Document, type Node } from 'yaml';

/** The objects of deploy/ that the CSV must mirror, as parsed YAML documents (comments kept). */
interface DeploySources {
  readonly clusterRole: Document;
  readonly roles: readonly Document[];
  readonly deployment: Document;
  /**
   * ClusterRoles deploy/ binds to other ServiceAccounts of the operator's namespace (the cloud node
   * manager's): each becomes a clusterPermissions entry of its own, which OLM turns into that
   * ServiceAccount, its ClusterRole and binding.
   */
  readonly otherServiceAccounts: readonly { readonly name: string; readonly clusterRole: Document }[];
}

function docsOf(text: string, source: string): Document[] {
  const docs = parseAllDocuments(text);
  for (const d of docs) if (d.errors.length > 0) throw new Error(`${source}: ${d.errors[0]?.message}`);
  return docs as Document[];
}

function one(docs: readonly Document[], kind: string): Document {
  const found = docs.filter((d) => d.get('kind') === kind);
  if (found.length !== 1) throw new Error(`deploy/ must hold exactly one ${kind}, found ${found.length}`);
  return found[0] as Document;
}

/** The ServiceAccount a ClusterRoleBinding binds, with the ClusterRole it names. */
function boundAccount(
  binding: Document,
  clusterRoles: readonly Document[],
): { name: string; clusterRole: Document } {
  const role = String(binding.getIn(['roleRef', 'name']));
  const clusterRole = clusterRoles.find((c) => c.getIn(['metadata', 'name']) === role);
  if (!clusterRole) throw new Error(`deploy/ binds ClusterRole ${role}, which it does not define`);
  return { name: String(binding.getIn(['subjects', 0, 'name'])), clusterRole };
}

/** Finds the ClusterRoles, Roles and Deployment among the texts of deploy/'s files. */
export function deploySources(files: readonly { text: string; source: string }[]): DeploySources {
  const docs = files.flatMap((f) => docsOf(f.text, f.source));
  const deployment = one(docs, 'Deployment');
  const operatorSa = String(deployment.getIn(['spec', 'template', 'spec', 'serviceAccountName']));
  const clusterRoles = docs.filter((d) => d.get('kind') === 'ClusterRole');
  const accounts = docs
    .filter((d) => d.get('kind') === 'ClusterRoleBinding')
    .map((b) => boundAccount(b, clusterRoles));
  const operator = accounts.filter((a) => a.name === operatorSa);
  if (operator.length !== 1)
    throw new Error(`deploy/ must bind exactly one ClusterRole to ${operatorSa}, found ${operator.length}`);
  return {
    clusterRole: (operator[0] as { clusterRole: Document }).clusterRole,
    roles: docs.filter((d) => d.get('kind') === 'Role'),
    deployment,
    otherServiceAccounts: accounts.filter((a) => a.name !== operatorSa),
  };
}

/** The items of a list, cloned; the comment above the list moves onto its first item. */
function items(doc: Document, path: readonly string[]): Node[] {
  const node = doc.getIn(path, true);
  if (!isSeq(node)) throw new Error(`${path.join('.')} is not a list`);
  const out = (node as YAMLSeq<Node>).items.map((i) => i.clone() as Node);
  const first = out[0];
  if (first && node.commentBefore)
    first.commentBefore = [node.commentBefore, first.commentBefore].filter(Boolean).join('\n');
  return out;
}

/**
 * Rewrites a CSV's install strategy (deployment, clusterPermissions, permissions), relatedImages and
 * containerImage from deploy/, keeping everything else (and the rules' comments). Roles outside the
 * operator namespace are folded into clusterPermissions (see rbac-grants.ts foldForOlm).
 */
export function syncCsv(csvText: string, src: DeploySources): string {
  const csv = parseDocument(csvText);
  if (csv.errors.length > 0) throw new Error(`CSV: ${csv.errors[0]?.message}`);
  const saName = String(src.deployment.getIn(['spec', 'template', 'spec', 'serviceAccountName']));
  const opNs = String(src.deployment.getIn(['metadata', 'namespace']));
  const clusterRules = new YAMLSeq<Node>();
  clusterRules.items.push(...items(src.clusterRole, ['rules']));
  const nsRules = new YAMLSeq<Node>();
  for (const role of src.roles) {
    const ns = String(role.getIn(['metadata', 'namespace']));
    const rules = items(role, ['rules']);
    if (ns === opNs) {
      nsRules.items.push(...rules);
      continue;
    }
    const from = ` From the Role in ${ns} (deploy/): cluster-wide here, as OLM creates Roles only in the install namespace.`;
    for (const rule of rules) rule.commentBefore = [from, rule.commentBefore].filter(Boolean).join('\n');
    clusterRules.items.push(...rules);
  }
  const installSpec = ['spec', 'install', 'spec'];
  csv.setIn([...installSpec, 'clusterPermissions'], csv.createNode([{ serviceAccountName: saName }]));
  csv.setIn([...installSpec, 'clusterPermissions', 0, 'rules'], clusterRules);
  src.otherServiceAccounts.forEach((a, i) => {
    const rules = new YAMLSeq<Node>();
    rules.items.push(...items(a.clusterRole, ['rules']));
    csv.setIn([...installSpec, 'clusterPermissions', i + 1], csv.createNode({ serviceAccountName: a.name }));
    csv.setIn([...installSpec, 'clusterPermissions', i + 1, 'rules'], rules);
  });
  csv.setIn([...installSpec, 'permissions'], csv.createNode([{ serviceAccountName: saName }]));
  csv.setIn([...installSpec, 'permissions', 0, 'rules'], nsRules);
  const name = String(src.deployment.getIn(['metadata', 'name']));
  csv.setIn([...installSpec, 'deployments'], csv.createNode([{ name }]));
  csv.setIn([...installSpec, 'deployments', 0, 'label'], src.deployment.getIn(['metadata', 'labels'], true));
  csv.setIn([...installSpec, 'deployments', 0, 'spec'], src.deployment.getIn(['spec'], true));
  const containers = src.deployment.getIn(['spec', 'template', 'spec', 'containers'], true);
  const images = isSeq(containers)
    ? containers.items.map((c) => (isMap(c) ? String(c.get('image')) : '')).filter((i) => i !== '')
    : [];
  csv.setIn(['metadata', 'annotations', 'containerImage'], images[0]);
  csv.setIn(['spec', 'relatedImages'], csv.createNode(images.map((image) => ({ name, image }))));
  return csv.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
}
