import type { Attributes, SFTPWrapper } from 'ssh2';
import ssh2 from 'ssh2';
import type { FileSystem } from './file-system.js';
import { keptBytes, rememberContent, sameAsRecent, type ArrivingFile } from './same-content.js';
import { fileBuffer } from './shared-memory.js';
import { endSftpSession, longName } from './sftp-session.js';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;

interface OpenFile extends ArrivingFile {
  path: string;
  chunks: { offset: number; data: Buffer }[];
  dirty: boolean;
}

/** Hooks the host uses to charge costs and inject faults. */
export interface SftpHooks {
  /** Delay before answering a request that moved `bytes` (latency and bandwidth). */
  delay(bytes: number): number;
  /** Called for every WRITE with its size; may drop the connection. */
  onWrite(bytes: number): void;
  /** Called when a RENAME put a complete file at `path` (how uploads end). */
  onRenamed?(path: string): void;
  /** While true, requests are taken and never answered (a host gone silent). */
  silent?(): boolean;
}

function attrs(fs: FileSystem, path: string): Attributes | undefined {
  const now = Math.floor(Date.now() / 1000);
  if (fs.isDirectory(path)) return { mode: 0o40755, uid: 0, gid: 0, size: 0, atime: now, mtime: now };
  const data = fs.read(path);
  if (!data) return undefined;
  return { mode: 0o100644, uid: 0, gid: 0, size: data.length, atime: now, mtime: now };
}

/** Materialises the written chunks into the file (also done for a partial file when the link drops). */
function flush(fs: FileSystem, f: OpenFile): void {
  if (!f.dirty) return;
  const size = f.chunks.reduce((n, c) => Math.max(n, c.offset + c.data.length), 0);
  // The same large file again (the payload archive to one more host): share the buffer, copy nothing.
  let out = sameAsRecent(f.chunks, size);
  if (!out) {
    out = fileBuffer(size);
    for (const c of f.chunks) c.data.copy(out, c.offset);
    rememberContent(out);
  }
  fs.write(f.path, out);
  f.dirty = false;
}

/** ssh2's SFTP server with the patch's option (patches/ssh2@1.17.0.patch). */
type ReusingSftp = SFTPWrapper & { reuseIncomingBuffer: boolean };

/** An SFTP v3 subsystem over the model's files, as Windows OpenSSH's sftp-server answers it. */
export function serveSftp(sftp: SFTPWrapper, fs: FileSystem, hooks: SftpHooks): void {
  const open = new Map<number, OpenFile>();
  const dirs = new Map<number, { path: string; done: boolean }>();
  let nextHandle = 1;
  const handleOf = (buf: Buffer): number => (buf.length === 4 ? buf.readUInt32BE(0) : -1);
  const newHandle = (): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(nextHandle++);
    return b;
  };
  const later = (bytes: number, fn: () => void): void => {
    if (hooks.silent?.() === true) return;
    const ms = hooks.delay(bytes);
    if (ms > 0) setTimeout(fn, ms);
    else fn();
  };
  const guard = (reqid: number, fn: () => void): void => {
    later(0, () => {
      try {
        fn();
      } catch (err) {
        sftp.status(reqid, STATUS_CODE.FAILURE, err instanceof Error ? err.message : String(err));
      }
    });
  };

  sftp.on('OPEN', (reqid, filename, flags) =>
    guard(reqid, () => {
      const writing = (flags & OPEN_MODE.WRITE) !== 0;
      if (!writing && !fs.isFile(filename)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      const f: OpenFile = { path: fs.resolve(filename), chunks: [], dirty: false };
      if (writing && ((flags & OPEN_MODE.TRUNC) !== 0 || !fs.isFile(filename))) {
        fs.write(filename, Buffer.alloc(0));
      } else if (fs.isFile(filename)) {
        f.chunks.push({ offset: 0, data: fs.read(filename)! });
      }
      const h = newHandle();
      open.set(handleOf(h), f);
      sftp.handle(reqid, h);
    }),
  );
  // ssh2 (patched) assembles each WRITE that spans channel packets in one buffer it reuses for the next:
  // `data` is valid only until this listener returns, so what is kept is a view of a known file with these
  // bytes there, or a copy. One buffer per upload instead of one per 254 KiB request for the collector.
  (sftp as ReusingSftp).reuseIncomingBuffer = true;
  sftp.on('WRITE', (reqid, handle, offset, data) => {
    const f = open.get(handleOf(handle));
    hooks.onWrite(data.length);
    const kept = f ? keptBytes(f, offset, data) : undefined;
    later(data.length, () => {
      if (!f || !kept) return sftp.status(reqid, STATUS_CODE.FAILURE, 'invalid handle');
      f.chunks.push({ offset, data: kept });
      f.dirty = true;
      sftp.status(reqid, STATUS_CODE.OK);
    });
  });
  sftp.on('READ', (reqid, handle, offset, length) =>
    guard(reqid, () => {
      const f = open.get(handleOf(handle));
      if (!f) return sftp.status(reqid, STATUS_CODE.FAILURE, 'invalid handle');
      flush(fs, f);
      const data = fs.read(f.path) ?? Buffer.alloc(0);
      if (offset >= data.length) return sftp.status(reqid, STATUS_CODE.EOF);
      sftp.data(reqid, data.subarray(offset, offset + length));
    }),
  );
  sftp.on('CLOSE', (reqid, handle) =>
    guard(reqid, () => {
      const f = open.get(handleOf(handle));
      if (f) flush(fs, f);
      open.delete(handleOf(handle));
      dirs.delete(handleOf(handle));
      sftp.status(reqid, STATUS_CODE.OK);
    }),
  );
  const stat = (reqid: number, path: string): void =>
    guard(reqid, () => {
      const a = attrs(fs, path);
      if (a) sftp.attrs(reqid, a);
      else sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
    });
  sftp.on('STAT', stat);
  sftp.on('LSTAT', stat);
  sftp.on('FSTAT', (reqid, handle) => stat(reqid, open.get(handleOf(handle))?.path ?? ''));
  sftp.on('SETSTAT', (reqid) => guard(reqid, () => sftp.status(reqid, STATUS_CODE.OK)));
  sftp.on('FSETSTAT', (reqid) => guard(reqid, () => sftp.status(reqid, STATUS_CODE.OK)));
  sftp.on('MKDIR', (reqid, path) =>
    guard(reqid, () => {
      const parent = fs.resolve(path).replace(/\\[^\\]*$/, '');
      if (fs.isDirectory(path) || fs.isFile(path))
        return sftp.status(reqid, STATUS_CODE.FAILURE, 'already exists');
      if (parent.length > 2 && !fs.isDirectory(parent)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      fs.mkdirp(path);
      sftp.status(reqid, STATUS_CODE.OK);
    }),
  );
  sftp.on('REMOVE', (reqid, path) =>
    guard(reqid, () => {
      if (!fs.isFile(path)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      fs.remove(path);
      sftp.status(reqid, STATUS_CODE.OK);
    }),
  );
  sftp.on('RMDIR', (reqid, path) =>
    guard(reqid, () => {
      if (!fs.isDirectory(path) || fs.list(path).length > 0) return sftp.status(reqid, STATUS_CODE.FAILURE);
      fs.remove(path);
      sftp.status(reqid, STATUS_CODE.OK);
    }),
  );
  sftp.on('RENAME', (reqid, from, to) =>
    guard(reqid, () => {
      fs.rename(from, to, false);
      sftp.status(reqid, STATUS_CODE.OK);
      hooks.onRenamed?.(fs.resolve(to));
    }),
  );
  sftp.on('REALPATH', (reqid, path) =>
    guard(reqid, () => {
      const p = path === '.' || path === '' ? 'C:\\Users\\Administrator' : fs.resolve(path);
      const name = `/${p.replace(/\\/g, '/')}`;
      sftp.name(reqid, [{ filename: name, longname: name, attrs: attrs(fs, p) ?? ({} as Attributes) }]);
    }),
  );
  sftp.on('OPENDIR', (reqid, path) =>
    guard(reqid, () => {
      if (!fs.isDirectory(path)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      const h = newHandle();
      dirs.set(handleOf(h), { path: fs.resolve(path), done: false });
      sftp.handle(reqid, h);
    }),
  );
  sftp.on('READDIR', (reqid, handle) =>
    guard(reqid, () => {
      const d = dirs.get(handleOf(handle));
      if (!d || d.done) return sftp.status(reqid, STATUS_CODE.EOF);
      d.done = true;
      sftp.name(
        reqid,
        fs.list(d.path).map((e) => {
          const a = attrs(fs, e.path)!;
          return { filename: e.name, longname: longName(e.name, a), attrs: a };
        }),
      );
    }),
  );
  // The client's EOF ends sftp-server, and sshd closes the channel (what `sftp`'s `bye` waits for).
  sftp.on('end', () => {
    for (const f of open.values()) flush(fs, f);
    open.clear();
    endSftpSession(sftp);
  });
  sftp.on('close', () => {
    for (const f of open.values()) flush(fs, f);
    open.clear();
  });
}
