/**
 * What one identity of a simulated cloud may do: every operation (`all`, the installer's root identity)
 * or the listed permissions. Names compare case-insensitively and `*` matches any run of characters, as
 * IAM action names and Azure operations do (`ec2:Describe*`, `Microsoft.Compute/virtualMachines/*`).
 */
export type CloudGrants = 'all' | readonly string[];

function pattern(p: string): RegExp {
  const body = p
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/** Whether `grants` allows `permission`. */
export function allows(grants: CloudGrants, permission: string): boolean {
  return grants === 'all' || grants.some((g) => pattern(g).test(permission));
}

/** A call a simulated cloud refused for want of a permission: who asked, and for what. */
export interface CloudRefusal {
  readonly principal: string;
  readonly permission: string;
}
