import { isDeepStrictEqual } from 'node:util';
import { serviceToJson, type ServicesData } from './services-configmap.js';

/**
 * Checks that an existing ConfigMap's content (`actual`) is exactly what this version would write
 * (`expected`), the equivalent of upstream's ValidateExpectedContent: same number of services and each
 * expected service present with identical configuration (any order); same files; identical environment
 * variables; identical watched variables (order matters). Throws naming the first difference.
 * Services are compared in their JSON form, so an absent list and an empty list are the same thing
 * (upstream's reflect.DeepEqual tells nil from empty; the ConfigMap JSON cannot).
 */
export function validateExpectedContent(actual: ServicesData, expected: ServicesData): void {
  if (actual.services.length !== expected.services.length) {
    throw new Error(
      `services ConfigMap has ${actual.services.length} services, expected ${expected.services.length}`,
    );
  }
  for (const want of expected.services) {
    const have = actual.services.find((s) => s.name === want.name);
    if (!have) throw new Error(`services ConfigMap is missing service ${want.name}`);
    if (!isDeepStrictEqual(serviceToJson(have), serviceToJson(want))) {
      throw new Error(`services ConfigMap service ${want.name} differs from the expected configuration`);
    }
  }
  if (!isDeepStrictEqual([...actual.files], [...expected.files])) {
    throw new Error('services ConfigMap files differ from the expected files');
  }
  if (!isDeepStrictEqual({ ...actual.environmentVars }, { ...expected.environmentVars })) {
    throw new Error('services ConfigMap environment variables differ from the expected values');
  }
  if (!isDeepStrictEqual([...actual.watchedEnvironmentVars], [...expected.watchedEnvironmentVars])) {
    throw new Error('services ConfigMap watched environment variables differ from the expected list');
  }
}
