/**
 * The provider contract version this build of @wmco/core implements. A provider declares the version it
 * was written against; core accepts versions from MIN_SUPPORTED_CONTRACT_VERSION to CONTRACT_VERSION.
 * Bumping CONTRACT_VERSION requires a CONTRACT.md entry (what changed, since which version).
 */
export const CONTRACT_VERSION = 1;
export const MIN_SUPPORTED_CONTRACT_VERSION = 1;
