import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { HostProtocolError, newRootContainer, type WindowsHost } from '@wmco/core';
import { type HostcheckPorts } from '@wmco/core/internal';
import type { CliContext } from './cli-context.js';
import { hostcheckCommand } from './hostcheck-command.js';

const refuse = (): never => {
  throw new Error('hostcheck must not change the host');
};

/** A host whose module refuses observe (as a real host would with review bug B1), and a capture of one source. */
const PORTS: HostcheckPorts = {
  openHost: (o): WindowsHost => ({
    address: o.host,
    observe: () =>
      Promise.reject(new HostProtocolError(o.host, 'state.firewallRules.0.localPort: expected number')),
    upload: refuse,
    apply: refuse,
    reboot: refuse,
    deconfigure: refuse,
    close: () => Promise.resolve(),
  }),
  capture: () =>
    Promise.resolve([
      {
        name: 'net-firewall-port-filter',
        command: 'Get-NetFirewallPortFilter -AssociatedNetFirewallRule <rule>',
        items: [
          {
            type: 'MSFT_NetProtocolPortFilter',
            value: { LocalPort: ['10250'] },
            types: { LocalPort: 'System.String[]' },
          },
        ],
        error: null,
      },
      { name: 'hns-network', command: 'Get-HnsNetwork', items: [], error: 'vmcompute.dll not found' },
    ]),
};

test('an observe the module fails: the files are written anyway, and the command fails naming observe.json', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-hostcheck-unit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const key = join(dir, 'id');
  await writeFile(key, 'not read by the fake ports');
  const out: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
    env: {},
  };
  const command = hostcheckCommand(ctx, PORTS).exitOverride();
  const fixtures = join(dir, 'out');
  const err = await t.throwsAsync(
    command.parseAsync(['10.0.0.5', '--user', 'Administrator', '--key', key, '--out', fixtures], {
      from: 'user',
    }),
  );
  t.regex(
    err?.message ?? '',
    /^hostcheck: the host module's observe failed on 10\.0\.0\.5 \(kept in .*observe\.json\): .*expected number/,
  );
  t.deepEqual((await readdir(fixtures)).sort(), [
    'hns-network.json',
    'index.json',
    'net-firewall-port-filter.json',
    'observe.json',
  ]);
  const index = JSON.parse(await readFile(join(fixtures, 'index.json'), 'utf8')) as Record<string, unknown>;
  t.like(index, { tool: 'wmco hostcheck', address: '10.0.0.5', observe: { file: 'observe.json' } });
  t.regex(out.join('\n'), /^observe +- +FAILED: .*expected number$/m);
  t.regex(out.join('\n'), /^hns-network +0 +vmcompute\.dll not found$/m);
});

test('bad flags are refused before connecting; nothing is written', async (t) => {
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: () => undefined,
    stderr: () => undefined,
    env: {},
  };
  const dir = await mkdtemp(join(tmpdir(), 'wmco-hostcheck-flags-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const run = (args: string[]): Promise<unknown> =>
    hostcheckCommand(ctx, PORTS)
      .exitOverride()
      .parseAsync(['10.0.0.5', '--user', 'A', '--out', join(dir, 'out'), ...args], { from: 'user' });
  await t.throwsAsync(run(['--key', '/nonexistent/key']), {
    message: /^--key: cannot read \/nonexistent\/key/,
  });
  await t.throwsAsync(run(['--key', '/dev/null', '--port', '0']), {
    message: /^--port: "0" is not a whole number/,
  });
  await t.throwsAsync(run(['--key', '/dev/null', '--platform', 'no such']), {
    message: /^--platform: "no such" is not a platform/,
  });
  t.deepEqual(await readdir(dir), []);
});
