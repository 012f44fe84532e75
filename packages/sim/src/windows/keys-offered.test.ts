import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { FREE_HOST_COSTS } from './host-costs.js';
import { SimulatedWindowsHost } from './simulated-windows-host.js';
import { generateEd25519KeyPair } from './ssh-auth.js';
import { nextLoopbackAddress } from './windows-host-fixture.js';

/** Logs in with one key; resolves whether the host accepted it. */
function login(sim: SimulatedWindowsHost, privateKey: string): Promise<boolean> {
  return new Promise((resolve) => {
    const client = new ssh2.Client();
    client.on('error', () => resolve(false));
    client.on('ready', () => {
      client.end();
      resolve(true);
    });
    client.connect({ host: sim.host, port: sim.port, username: 'Administrator', privateKey });
  });
}

/** The fingerprint OpenSSH's own ssh-keygen prints for a public key line. */
function keygenFingerprint(publicKey: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-offered-')), 'key.pub');
  writeFileSync(file, `${publicKey}\n`);
  return execFileSync('ssh-keygen', ['-lf', file], { encoding: 'utf8' }).split(' ')[1] ?? '';
}

test('the host counts each offered public key by its OpenSSH fingerprint, refused ones too', async (t) => {
  const [allowed, other] = [generateEd25519KeyPair(), generateEd25519KeyPair()];
  const sim = await SimulatedWindowsHost.start({
    address: nextLoopbackAddress(),
    authorizedKey: allowed.public,
    costs: FREE_HOST_COSTS,
  });
  t.teardown(() => sim.stop());
  t.true(await login(sim, allowed.private));
  t.false(await login(sim, other.private));
  const offered = sim.stats.keysOffered;
  t.deepEqual(
    Object.keys(offered).sort(),
    [keygenFingerprint(allowed.public), keygenFingerprint(other.public)].sort(),
  );
  t.true(Object.values(offered).every((n) => n >= 1));
});
