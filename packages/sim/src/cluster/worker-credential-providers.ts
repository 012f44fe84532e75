/**
 * The kubelet image credential provider config the Machine Config Operator renders into the workers'
 * ignition on the clouds (its `templates/common/<platform>/files/etc-kubernetes-credential-providers-*`),
 * and the kubelet flags that name it (its `credentialProviderConfigFlag`). A table by platform, as the
 * MCO's own templates are per platform.
 */
export interface WorkerCredentialProvider {
  readonly path: string;
  readonly content: string;
}

const DIR = '/etc/kubernetes/credential-providers';
const BIN_DIR = '/usr/libexec/kubelet-image-credential-provider-plugins';

const config = (name: string, body: readonly string[]): string =>
  [
    'apiVersion: kubelet.config.k8s.io/v1',
    'kind: CredentialProviderConfig',
    'providers:',
    `  - name: ${name}`,
    '    apiVersion: credentialprovider.kubelet.k8s.io/v1',
    ...body.map((l) => `    ${l}`),
    '',
  ].join('\n');

const BY_PLATFORM: Readonly<Record<string, WorkerCredentialProvider>> = {
  AWS: {
    path: `${DIR}/ecr-credential-provider.yaml`,
    content: config('ecr-credential-provider', [
      'matchImages:',
      '  - "*.dkr.ecr.*.amazonaws.com"',
      '  - "*.dkr.ecr.*.amazonaws.com.cn"',
      '  - "*.dkr.ecr-fips.*.amazonaws.com"',
      '  - "*.dkr.ecr.us-iso-east-1.c2s.ic.gov"',
      '  - "*.dkr.ecr.us-isob-east-1.sc2s.sgov.gov"',
      'defaultCacheDuration: "12h"',
    ]),
  },
  Azure: {
    path: `${DIR}/acr-credential-provider.yaml`,
    content: config('acr-credential-provider', [
      'defaultCacheDuration: "10m"',
      'matchImages:',
      '  - "*.azurecr.io"',
      '  - "*.azurecr.cn"',
      '  - "*.azurecr.de"',
      '  - "*.azurecr.us"',
      'args:',
      '  - /etc/kubernetes/cloud.conf',
    ]),
  },
  GCP: {
    path: `${DIR}/gcr-credential-provider.yaml`,
    content: config('gcr-credential-provider', [
      'matchImages:',
      '  - "gcr.io"',
      '  - "*.gcr.io"',
      '  - "*.pkg.dev"',
      '  - "container.cloud.google.com"',
      'defaultCacheDuration: "1m"',
      'args:',
      '  - get-credentials',
      '  - --v=3',
    ]),
  },
};

/** The platform's credential provider config of the workers, if the MCO renders one there. */
export function workerCredentialProvider(platform: string): WorkerCredentialProvider | undefined {
  return BY_PLATFORM[platform];
}

/** The Linux kubelet's flags for it. */
export function credentialProviderFlags(p: WorkerCredentialProvider): string[] {
  return [`--image-credential-provider-bin-dir=${BIN_DIR}`, `--image-credential-provider-config=${p.path}`];
}
