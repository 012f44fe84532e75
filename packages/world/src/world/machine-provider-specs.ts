/**
 * The providerSpec of a Windows MachineSet on each platform, as the OpenShift docs show it (the fields
 * the simulated machine-api reads: zone/placement, tags or labels, the user data Secret; the others are
 * kept so the examples stay recognisable). `infra` is the cluster's infrastructure name.
 */
type SpecBuilder = (infra: string, userDataSecret: string) => Record<string, unknown>;

const common = (kind: string, userDataSecret: string): Record<string, unknown> => ({
  apiVersion: 'machine.openshift.io/v1beta1',
  kind,
  userDataSecret: { name: userDataSecret },
});

const SPECS: Readonly<Record<string, SpecBuilder>> = {
  VSphere: (_, ud) => ({ ...common('VSphereMachineProviderSpec', ud), template: 'windows-golden-image' }),
  Nutanix: (_, ud) => ({
    ...common('NutanixMachineProviderConfig', ud),
    image: { type: 'name', name: 'ws2022' },
  }),
  AWS: (infra, ud) => ({
    ...common('AWSMachineProviderConfig', ud),
    ami: { id: 'ami-0windows2022' },
    instanceType: 'm5a.large',
    credentialsSecret: { name: 'aws-cloud-credentials' },
    iamInstanceProfile: { id: `${infra}-worker-profile` },
    placement: { availabilityZone: 'us-east-2a', region: 'us-east-2' },
    securityGroups: [{ filters: [{ name: 'tag:Name', values: [`${infra}-worker-sg`] }] }],
    subnet: { filters: [{ name: 'tag:Name', values: [`${infra}-private-us-east-2a`] }] },
    tags: [{ name: `kubernetes.io/cluster/${infra}`, value: 'owned' }],
  }),
  Azure: (infra, ud) => ({
    ...common('AzureMachineProviderSpec', ud),
    credentialsSecret: { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
    image: {
      offer: 'WindowsServer',
      publisher: 'MicrosoftWindowsServer',
      sku: '2022-datacenter-smalldisk',
      version: 'latest',
    },
    location: 'eastus',
    osDisk: { diskSizeGB: 128, managedDisk: { storageAccountType: 'Premium_LRS' }, osType: 'Windows' },
    resourceGroup: `${infra}-rg`,
    subnet: `${infra}-worker-subnet`,
    vmSize: 'Standard_D2s_v3',
    vnet: `${infra}-vnet`,
    zone: '1',
  }),
  GCP: (infra, ud) => ({
    ...common('GCPMachineProviderSpec', ud),
    credentialsSecret: { name: 'gcp-cloud-credentials' },
    disks: [
      {
        autoDelete: true,
        boot: true,
        image: 'projects/windows-cloud/global/images/family/windows-2022-core',
        sizeGb: 128,
        type: 'pd-ssd',
      },
    ],
    machineType: 'n1-standard-4',
    networkInterfaces: [{ network: `${infra}-network`, subnetwork: `${infra}-worker-subnet` }],
    projectID: 'wmco-sim-project',
    region: 'us-central1',
    tags: [`${infra}-worker`],
    zone: 'us-central1-a',
  }),
  // machine-api-provider-kubevirt's KubevirtMachineProviderSpec: a golden image PVC the root disk is cloned
  // from, the VM's size; `namespace` is where the simulated provider creates the VM.
  KubeVirt: (_, ud) => ({
    ...common('KubevirtMachineProviderSpec', ud),
    sourcePvcName: 'windows-server-2022-golden',
    requestedMemory: '8Gi',
    requestedCPU: 4,
    namespace: 'openshift-machine-api',
  }),
};

export function providerSpecFor(
  platform: string,
  infra: string,
  userDataSecret: string,
): Record<string, unknown> {
  const build = Object.hasOwn(SPECS, platform) ? SPECS[platform] : undefined;
  return build ? build(infra, userDataSecret) : common('SimMachineProviderSpec', userDataSecret);
}
