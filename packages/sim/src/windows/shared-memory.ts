/**
 * Files from this size on live in shared memory (a SharedArrayBuffer): the SFTP server stores large uploads
 * there and the extraction thread gives back large files there. The thread then reads an archive without a
 * copy, and the main thread takes a file without it counting as main-thread memory (transferred memory
 * does, and hundreds of megabytes of it set off garbage collections that stall the operator).
 */
export const SHARED_FROM_BYTES = 1024 * 1024;

/** A zero-filled buffer for a file of `size` bytes: shared from `SHARED_FROM_BYTES` on. */
export function fileBuffer(size: number): Buffer {
  return size >= SHARED_FROM_BYTES ? Buffer.from(new SharedArrayBuffer(size)) : Buffer.alloc(size);
}
