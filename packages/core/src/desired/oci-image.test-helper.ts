// Test helper: a small hand-built OCI image (one gzipped tar layer, a config, a manifest).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** A one-file ustar archive (512-byte header, content, padding, two zero blocks). */
function tarOneFile(name: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const field = (value: string, offset: number, length: number): void =>
    void header.write(value, offset, length, 'ascii');
  field(name, 0, 100);
  field('0000644\0', 100, 8);
  field('0000000\0', 108, 8);
  field('0000000\0', 116, 8);
  field(content.length.toString(8).padStart(11, '0') + '\0', 124, 12);
  field('00000000000\0', 136, 12);
  field('        ', 148, 8);
  field('0', 156, 1);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  const sum = header.reduce((a, b) => a + b, 0);
  field(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  const pad = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, pad, Buffer.alloc(1024)]);
}

export const digestOf = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A hand-built single-layer OCI image. */
export function buildImage(): { manifest: Buffer; digest: string; blobs: Buffer[] } {
  const layerTar = tarOneFile('etc/hello.txt', Buffer.from('hello from the mirror\n'));
  const layer = gzipSync(layerTar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Cmd: ['/bin/true'] },
      rootfs: { type: 'layers', diff_ids: [digestOf(layerTar)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: digestOf(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
          digest: digestOf(layer),
          size: layer.length,
        },
      ],
    }),
  );
  return { manifest, digest: digestOf(manifest), blobs: [layer, config] };
}
