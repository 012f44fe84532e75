/** An authenticated user as the authorizer and admission see it. */
export interface RequestUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
}

/** The user the in-process controllers act as. */
export const SYSTEM_USER: RequestUser = {
  name: 'system:kube-controller-manager',
  groups: ['system:masters'],
};
