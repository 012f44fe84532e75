import {
  bootstrapTokenIdentity,
  openShiftBootstrapIdentity,
  type BootstrapIdentity,
} from '@wmco/core/internal';

/** Whose client CSRs may register nodes: `--bootstrap-group`'s members, else OpenShift's node-bootstrapper. */
export function bootstrapIdentity(bootstrapGroup: string | undefined): BootstrapIdentity {
  return bootstrapGroup ? bootstrapTokenIdentity(bootstrapGroup) : openShiftBootstrapIdentity;
}
