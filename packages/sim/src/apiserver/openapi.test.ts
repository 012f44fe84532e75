import test from 'ava';
import { parse } from 'yaml';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiGroupVersion, openApiRoot } from './openapi.js';
import { TypeRegistry } from './type-registry.js';
import { OPENSHIFT_CRDS } from '../cluster/openshift-crds.js';

/** Groups served through CRDs (the seeded cluster registers them; a bare registry does not). */
const CRD_GROUPS = new Set(OPENSHIFT_CRDS.map((c) => String((c['spec'] as { group?: string }).group)));

const deployDir = fileURLToPath(new URL('../../../../deploy/', import.meta.url));

/** apiVersion and kind of every document in deploy/. */
function deployKinds(): { apiVersion: string; kind: string }[] {
  return readdirSync(deployDir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      readFileSync(`${deployDir}${f}`, 'utf8')
        .split(/^---$/m)
        .map((doc) => parse(doc) as { apiVersion?: string; kind?: string } | null)
        .flatMap((d) => (d?.apiVersion && d.kind ? [{ apiVersion: d.apiVersion, kind: d.kind }] : [])),
    );
}

// kubectl --validate=strict (its default) asks the OpenAPI v3 document of the object's group version whether
// PATCH takes `fieldValidation`; when the group version is missing it falls back to /openapi/v2, which the
// simulated server does not serve, and the apply fails ("failed to download openapi").
test('every kind in deploy/ has an OpenAPI v3 PATCH operation declaring fieldValidation', (t) => {
  const reg = new TypeRegistry();
  const root = openApiRoot(reg) as { paths: Record<string, unknown> };
  const kinds = deployKinds();
  t.true(kinds.some((k) => k.apiVersion === 'apps/v1' && k.kind === 'Deployment'));
  for (const { apiVersion, kind } of kinds) {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    // CRD kinds (the PrometheusRule) are checked against a seeded cluster by kubectl-tools.scenario.
    if (CRD_GROUPS.has(group ?? '')) continue;
    const path = group === '' ? `api/${version}` : `apis/${group}/${version}`;
    t.truthy(root.paths[path], `${path} is listed in /openapi/v3`);
    const doc = openApiGroupVersion(reg, group!, version!) as { paths: Record<string, { patch?: unknown }> };
    const patch = Object.values(doc.paths)
      .map(
        (p) =>
          p.patch as { 'x-kubernetes-group-version-kind': { kind: string }; parameters: { name: string }[] },
      )
      .find((p) => p['x-kubernetes-group-version-kind'].kind === kind);
    t.truthy(patch, `${apiVersion} ${kind} has a PATCH operation`);
    t.true(patch?.parameters.some((p) => p.name === 'fieldValidation'));
  }
});
