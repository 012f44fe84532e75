import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { CORE_PAYLOAD } from '@wmco/core';
import { parseSha256Sums } from '@wmco/core/internal';
import { tarGzOf } from '@wmco/sim';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';
import { simPayloadContent } from './sim-payload.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const STAGING = 'C:\\ProgramData\\wmco\\staging';

test.serial(
  'an upstream-layout payload (.tar.gz, sums of the uncompressed files) joins a host',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-TGZ' }], { payloadLayout: 'upstream' });
    t.teardown(() => world.stop());
    const sums = parseSha256Sums(await readFile(join(world.payloadDir, 'sha256sum'), 'utf8'));
    // The payload really is compressed: the sum is not the hash of the shipped file.
    const shipped = await readFile(join(world.payloadDir, 'kubelet.exe.tar.gz'));
    t.not(sha(shipped), sums.get('kubelet.exe'));
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const h = world.hosts.hosts[0]!;
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
    for (const f of CORE_PAYLOAD) {
      const onHost = h.sim.model.files.read(`${f.directory}\\${f.name}`);
      if (!onHost) return t.fail(`${f.name} is not on the host`);
      t.is(sums.get(f.name), sha(onHost), `${f.name} holds the uncompressed file`);
    }
    t.deepEqual(h.sim.model.files.list(STAGING), [], 'staging is empty after the join');
    // What crossed the link is about the compressed payload (plus the module and generated files).
    const compressed = CORE_PAYLOAD.length * shipped.length;
    t.true(h.sim.stats.bytesReceived < compressed + 200_000, `${h.sim.stats.bytesReceived} bytes`);
  },
);

test.serial(
  'a payload file whose hash does not match is refused; nothing half-written; fixed, it joins',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-BAD' }], { payloadLayout: 'upstream' });
    t.teardown(() => world.stop());
    const archive = join(world.payloadDir, 'kubelet.exe.tar.gz');
    const good = await readFile(archive);
    await writeFile(
      archive,
      await tarGzOf('kubelet.exe', Buffer.from('a kubelet that sha256sum does not name')),
    );
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    const op = await world.startOperator();
    const h = world.hosts.hosts[0]!;
    const failed = await until(
      'the hash failure in the instance status',
      async () => {
        const s = await world.status(h.address);
        return s?.lastError?.includes('kubelet.exe') ? s : undefined;
      },
      90_000,
    );
    // Stopped, so that no retry is under way while the host is inspected.
    await op.stop();
    const expected = simPayloadContent('kubelet.exe', 4096);
    t.regex(
      failed.lastError ?? '',
      new RegExp(
        `staged file for 'C:\\\\k\\\\kubelet\\.exe' has SHA-256 '[0-9a-f]{64}', expected '${sha(expected)}'`,
      ),
    );
    const events = await eventsAbout(world);
    t.true(
      events.some((e) => e.type === 'Warning' && e.message.includes("staged file for 'C:\\k\\kubelet.exe'")),
      'a Warning event names the file',
    );
    t.false(h.sim.model.files.isFile('C:\\k\\kubelet.exe'), 'no kubelet.exe');
    t.false(h.sim.model.files.isFile('C:\\k\\kubelet.exe.wmco-new'), 'no half-written kubelet.exe');
    t.false(
      h.sim.model.files
        .list(STAGING)
        .some((e) => e.name === sha(expected) || e.name === `${sha(expected)}.tar.gz`),
      'the bad archive is not kept in staging',
    );
    t.false(
      h.sim.model.scm.all().some((s) => s.name === 'kubelet'),
      'no kubelet service was created from a bad binary',
    );

    // The operator keeps going: with the right archive in place, the next attempt joins the host.
    await writeFile(archive, good);
    await world.startOperator('wmco-1');
    await until(
      `${h.address} Ready`,
      async () => ((await world.status(h.address))?.phase === 'Ready' ? true : undefined),
      120_000,
    );
    t.is(sha(h.sim.model.files.read('C:\\k\\kubelet.exe')!), sha(expected));
  },
);
