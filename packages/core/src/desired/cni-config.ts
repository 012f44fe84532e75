/** What the CNI configuration is made of (reference §1.17). */
export interface CniConfigInput {
  /** The HNS network name, also the CNI network name. */
  readonly networkName: string;
  /** The node's pod subnet (the HNS network's subnet). */
  readonly subnet: string;
  /** The service network, excluded from outbound NAT and routed through the overlay. */
  readonly serviceCidr: string;
  /** The HNS network's management IP (the provider address). */
  readonly providerAddress: string;
}

/** `C:\k\cni\config\cni.conf`: the win-overlay plugin with host-local IPAM. */
export function cniConfiguration(input: CniConfigInput): string {
  return JSON.stringify(
    {
      cniVersion: '0.2.0',
      name: input.networkName,
      type: 'win-overlay',
      apiVersion: 2,
      capabilities: { portMappings: true, dns: true },
      ipam: { type: 'host-local', subnet: input.subnet },
      policies: [
        {
          name: 'EndpointPolicy',
          value: { type: 'OutBoundNAT', settings: { exceptionList: [input.serviceCidr] } },
        },
        {
          name: 'EndpointPolicy',
          value: { type: 'SDNRoute', settings: { destinationPrefix: input.serviceCidr, needEncap: true } },
        },
        {
          name: 'EndpointPolicy',
          value: { type: 'ProviderAddress', settings: { providerAddress: input.providerAddress } },
        },
      ],
    },
    undefined,
    2,
  );
}
