export { nutanixProvider, nutanixProvider as default } from './nutanix-provider.js';
export { MachineNameError } from './nutanix-host-rename.js';
