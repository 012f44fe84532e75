import { isMap, isSeq, parseDocument, type Document } from 'yaml';

/** A digest as registries report it (`skopeo inspect`, `podman push --digestfile`). */
const DIGEST = /^sha256:[0-9a-f]{64}$/;

export class ImageDigestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDigestError';
  }
}

/** `quay.io/x/operator:0.1.0` -> `quay.io/x/operator` (a registry port's colon is kept). */
export function imageRepository(image: string): string {
  const at = image.indexOf('@');
  if (at >= 0) return image.slice(0, at);
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? image.slice(0, colon) : image;
}

function pinned(image: string, digests: ReadonlyMap<string, string>): string {
  const digest = digests.get(imageRepository(image));
  if (digest === undefined) throw new ImageDigestError(`no digest given for ${image}`);
  return `${imageRepository(image)}@${digest}`;
}

function pinContainers(csv: Document, digests: ReadonlyMap<string, string>): void {
  const deployments = csv.getIn(['spec', 'install', 'spec', 'deployments'], true);
  if (!isSeq(deployments)) return;
  for (const d of deployments.items) {
    const containers = isMap(d) ? d.getIn(['spec', 'template', 'spec', 'containers'], true) : undefined;
    if (!isSeq(containers)) continue;
    for (const c of containers.items) if (isMap(c)) c.set('image', pinned(String(c.get('image')), digests));
  }
}

/**
 * The release step: every image of the CSV (its containers, relatedImages, the containerImage annotation)
 * referenced by digest, `repository@sha256:...`, from `digests` (repository -> digest), and only then the
 * `disconnected` feature claimed (a mirrored cluster pulls by digest: image content source policies do not
 * apply to tags). An image without a digest, or a malformed digest, is an ImageDigestError.
 */
export function pinImages(csvText: string, digests: ReadonlyMap<string, string>): string {
  for (const [repo, digest] of digests) {
    if (!DIGEST.test(digest))
      throw new ImageDigestError(`${repo}: '${digest}' is not sha256:<64 hex digits>`);
  }
  const csv = parseDocument(csvText);
  if (csv.errors.length > 0) throw new ImageDigestError(`CSV: ${csv.errors[0]?.message}`);
  pinContainers(csv, digests);
  const related = csv.getIn(['spec', 'relatedImages'], true);
  if (isSeq(related)) {
    for (const r of related.items) if (isMap(r)) r.set('image', pinned(String(r.get('image')), digests));
  }
  const annotations = ['metadata', 'annotations'];
  csv.setIn(
    [...annotations, 'containerImage'],
    pinned(String(csv.getIn([...annotations, 'containerImage'])), digests),
  );
  csv.setIn([...annotations, 'features.operators.openshift.io/disconnected'], 'true');
  return csv.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
}

/** Every image the CSV references (containers, relatedImages, containerImage). */
export function csvImages(csv: Record<string, unknown>): string[] {
  const c = csv as {
    metadata: { annotations: Record<string, string> };
    spec: {
      relatedImages?: { image: string }[];
      install: {
        spec: { deployments: { spec: { template: { spec: { containers: { image: string }[] } } } }[] };
      };
    };
  };
  return [
    c.metadata.annotations['containerImage'] ?? '',
    ...(c.spec.relatedImages ?? []).map((r) => r.image),
    ...c.spec.install.spec.deployments.flatMap((d) => d.spec.template.spec.containers.map((x) => x.image)),
  ];
}
