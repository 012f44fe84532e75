import type * as OpenPgp from 'openpgp';

/**
 * openpgp is loaded on first use: only nodes another operator joined carry this format, and its module
 * (2.3 MiB of source alone) was a few MiB of every operator's resident memory (`pnpm bench scale`'s heap
 * snapshot), on a budget of 200 MiB at 2,000 nodes.
 */
const openpgp = (): Promise<typeof OpenPgp> => import('openpgp');

/** What the Go WMCO writes for each newline of the armoured message (its pkg/crypto `wmcoMarker`). */
const MARKER = '<wmcoMarker>';
const TAG = 'ENCRYPTED DATA';
const BEGIN = `-----BEGIN ${TAG}-----`;
const END = `-----END ${TAG}-----`;

/** CRC-24 of RFC 4880 §6.1, the armour checksum. */
function crc24(data: Uint8Array): number {
  let crc = 0xb704ce;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

function checksum(data: Uint8Array): string {
  const c = crc24(data);
  return `=${Buffer.from([c >> 16, (c >> 8) & 0xff, c & 0xff]).toString('base64')}`;
}

/** The binary OpenPGP message inside upstream's armour (`ENCRYPTED DATA` block, checksum checked). */
function unarmor(annotation: string): Uint8Array {
  const lines = annotation.split(MARKER).join('\n').trim().split(/\r?\n/);
  const begin = lines.indexOf(BEGIN);
  const end = lines.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`not an OpenPGP armour block tagged ${TAG}`);
  const body = lines.slice(begin + 1, end);
  // Armour headers (none from upstream) end at the first empty line.
  const blank = body.indexOf('');
  const text = blank < 0 ? body : body.slice(blank + 1);
  const sum = text.at(-1)?.startsWith('=') ? text.at(-1) : undefined;
  const data = new Uint8Array(Buffer.from((sum ? text.slice(0, -1) : text).join(''), 'base64'));
  if (sum !== undefined && sum !== checksum(data)) throw new Error('the armour checksum does not match');
  return data;
}

/**
 * Decrypts the Go WMCO's `windowsmachineconfig.openshift.io/username` annotation (its pkg/crypto): an
 * OpenPGP message encrypted symmetrically with the bytes of `private-key.pem` as the passphrase, armoured
 * with the tag `ENCRYPTED DATA`, each newline written as `<wmcoMarker>`. Throws for another key, a
 * modified value (the message's integrity check) or anything else.
 */
export async function decryptUpstreamUsername(annotation: string, privateKeyPem: string): Promise<string> {
  if (privateKeyPem === '') throw new Error('decryption passphrase cannot be empty');
  const { decrypt, readMessage } = await openpgp();
  const message = await readMessage({ binaryMessage: unarmor(annotation) });
  try {
    // openpgp's typings reach web-stream types this project does not load: the result is read as documented.
    const result = (await decrypt({ message, passwords: [privateKeyPem], format: 'utf8' })) as unknown as {
      readonly data: string;
    };
    return result.data;
  } catch (err) {
    throw new Error(`the username annotation does not decrypt with the current private key: ${String(err)}`, {
      cause: err,
    });
  }
}

/**
 * Writes a username as the Go WMCO does (the inverse of `decryptUpstreamUsername`): used by the simulated
 * world to stage nodes "joined by the Go WMCO" and by tests; the operator itself never writes this format.
 */
export async function encryptUpstreamUsername(username: string, privateKeyPem: string): Promise<string> {
  const { createMessage, encrypt } = await openpgp();
  const data = (await encrypt({
    message: await createMessage({ text: username }),
    passwords: [privateKeyPem],
    format: 'binary',
  })) as unknown as Uint8Array;
  const base64 = Buffer.from(data).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return [BEGIN, '', ...lines, checksum(data), END].join(MARKER);
}
