import type { JsonObject } from './json.js';
import type { RequestUser } from './request-user.js';
import type { ResourceType } from './resource-type.js';

/** What a hook is told about the write it is looking at. */
export interface WriteContext {
  readonly type: ResourceType;
  readonly user: RequestUser;
  /** '' for the main resource, else the subresource (status, approval, finalize). */
  readonly subresource: string;
}

/**
 * Type-specific admission, like the registry strategies of kube-apiserver: mutate `next` in place or
 * throw an ApiError (422 for invalid objects).
 */
export interface TypeHooks {
  create?(next: JsonObject, ctx: WriteContext): void;
  update?(old: JsonObject, next: JsonObject, ctx: WriteContext): void;
}
