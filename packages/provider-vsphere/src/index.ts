export { vsphereProvider, vsphereProvider as default } from './vsphere-provider.js';
export { fqdnFromIpconfig } from './vsphere-fqdn.js';
export { MachineNameError } from './vsphere-host-rename.js';
