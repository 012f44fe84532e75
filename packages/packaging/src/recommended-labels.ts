/** The Kubernetes recommended labels (and Helm's chart label) the chart puts on every object. */
export const RECOMMENDED_LABELS = [
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/version',
  'app.kubernetes.io/component',
  'app.kubernetes.io/part-of',
  'app.kubernetes.io/managed-by',
  'helm.sh/chart',
] as const;

type Meta = { labels?: Record<string, string> };
type Labelled = { metadata?: Meta };

function strip(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  const rest = Object.fromEntries(
    Object.entries(labels).filter(([k]) => !(RECOMMENDED_LABELS as readonly string[]).includes(k)),
  );
  return Object.keys(rest).length > 0 ? rest : undefined;
}

function withoutIn(meta: Meta): Meta {
  const { labels, ...others } = meta;
  const kept = strip(labels);
  return kept ? { ...others, labels: kept } : others;
}

/**
 * A copy of a manifest without the recommended labels on the object and on its pod template, to compare
 * the chart's objects with deploy/'s (which are not installed by Helm and carry only some of them).
 */
export function withoutRecommendedLabels(object: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(object) as Labelled & Record<string, unknown>;
  if (out.metadata) out.metadata = withoutIn(out.metadata);
  const template = (out['spec'] as { template?: Labelled } | undefined)?.template;
  if (template?.metadata) template.metadata = withoutIn(template.metadata);
  return out;
}
