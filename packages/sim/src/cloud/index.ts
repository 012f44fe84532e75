export { CloudFaults, type CloudFaultKind } from './cloud-faults.js';
export { SimCloudInstance, type CloudInstanceSpec } from './cloud-instance.js';
export { HttpsEndpoint } from './https-endpoint.js';
export { SimEc2, type SimEc2Options, type AwsAccessKey } from './ec2/sim-ec2.js';
export type { Ec2InstanceSpec, SimSecurityGroup, SimIngressRule } from './ec2/ec2-state.js';
export { verifySigV4, type SigV4Refusal } from './ec2/sigv4-verifier.js';
export { SimGce, type SimGceOptions } from './gce/sim-gce.js';
export type { SimFirewall } from './gce/gce-state.js';
export type { ServiceAccountKey } from './gce/gce-token.js';
