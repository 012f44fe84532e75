import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One YAML document of a file, with where it came from. */
export interface ManifestDoc {
  readonly source: string;
  readonly object: Record<string, unknown>;
}

export class ManifestError extends Error {
  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'ManifestError';
  }
}

/** Every `*.yaml`/`*.yml` file under `dir`, sorted (the apply order of numbered files). */
export function listYamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return listYamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

/** Parses a multi-document YAML text; empty documents are dropped, as kubectl and helm do. */
export function parseManifests(text: string, source: string): ManifestDoc[] {
  return parseAllDocuments(text).flatMap((doc, i) => {
    if (doc.errors.length > 0) {
      throw new ManifestError(`${source} (document ${i + 1})`, doc.errors.map((e) => e.message).join('; '));
    }
    const object: unknown = doc.toJS();
    if (object === null || object === undefined) return [];
    if (typeof object !== 'object' || Array.isArray(object)) {
      throw new ManifestError(`${source} (document ${i + 1})`, 'a manifest must be a mapping');
    }
    return [{ source: `${source}#${i + 1}`, object: object as Record<string, unknown> }];
  });
}

/** Parses every YAML file under `dir`, naming each document by its path relative to `root`. */
export function readManifestDir(dir: string, root: string): ManifestDoc[] {
  return listYamlFiles(dir).flatMap((file) =>
    parseManifests(readFileSync(file, 'utf8'), relative(root, file)),
  );
}

/** The problems of a Kubernetes object: missing apiVersion, kind or metadata.name. */
export function objectProblems(doc: ManifestDoc): string[] {
  const o = doc.object;
  const metadata = o['metadata'] as Record<string, unknown> | undefined;
  const problems: string[] = [];
  if (typeof o['apiVersion'] !== 'string' || o['apiVersion'] === '') problems.push('no apiVersion');
  if (typeof o['kind'] !== 'string' || o['kind'] === '') problems.push('no kind');
  if (typeof metadata?.['name'] !== 'string' || metadata['name'] === '') problems.push('no metadata.name');
  return problems.map((p) => `${doc.source}: ${p}`);
}

/** `kind/namespace/name`, the identity of an object. */
export function objectKey(o: Record<string, unknown>): string {
  const metadata = (o['metadata'] ?? {}) as { name?: string; namespace?: string };
  return `${String(o['kind'])}/${metadata.namespace ?? ''}/${metadata.name ?? ''}`;
}
