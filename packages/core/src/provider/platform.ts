/**
 * The cluster platform as OpenShift names it in `infrastructure.config.openshift.io/cluster`
 * `.status.platformStatus.type`. The first-party names are listed; a third-party provider may serve any
 * other name of the same shape (for example `KubeVirt`).
 */
export type PlatformType =
  'AWS' | 'Azure' | 'GCP' | 'VSphere' | 'Nutanix' | 'None' | 'BareMetal' | (string & Record<never, never>);

/** The platform names the first-party providers serve. */
export const FIRST_PARTY_PLATFORMS: readonly PlatformType[] = [
  'AWS',
  'Azure',
  'GCP',
  'VSphere',
  'Nutanix',
  'None',
  'BareMetal',
];

const PLATFORM_NAME = /^[A-Z][A-Za-z0-9]{1,31}$/;

/** True when `name` has the shape of an OpenShift platform type (PascalCase, letters and digits). */
export function isPlatformName(name: string): boolean {
  return PLATFORM_NAME.test(name);
}
