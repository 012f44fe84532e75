import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import {
  AuthenticationError,
  HostFolderRefusedError,
  HostProtocolError,
  HostUnreachableError,
} from '../host/errors.js';
import { InMemoryHostKeyStore } from '../host/host-key-store.js';
import type { HostState } from '../host/protocol/index.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import { ANY_BUILD, healthyState } from './host-state.test-helper.js';
import { runPreflight, type PreflightInput, type PreflightPorts } from './run-preflight.js';

const ED25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
const RSA1024 = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
  type: 'pkcs1',
  format: 'pem',
});

interface Recorder {
  opened: SshHostOptions[];
  queries: ObserveQuery[];
  closed: number;
  probed: string[];
}

function fakes(
  outcome: HostState | Error,
  over: Partial<PreflightPorts> = {},
): { ports: PreflightPorts; log: Recorder } {
  const log: Recorder = { opened: [], queries: [], closed: 0, probed: [] };
  const ports: PreflightPorts = {
    resolve: (name) =>
      name === 'win.example.com'
        ? Promise.resolve(['::1', '10.0.0.7'])
        : Promise.reject(new Error('NXDOMAIN')),
    probeTcp: (host, port) => {
      log.probed.push(`${host}:${port}`);
      return Promise.resolve();
    },
    openHost: (o): WindowsHost => {
      log.opened.push(o);
      const unused = (): Promise<never> => Promise.reject(new Error('preflight must only observe'));
      return {
        address: o.host,
        observe: (q) => {
          log.queries.push(q);
          return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
        },
        upload: unused,
        apply: unused,
        reboot: unused,
        deconfigure: unused,
        close: () => {
          log.closed++;
          return Promise.resolve();
        },
      };
    },
    ...over,
  };
  return { ports, log };
}

function input(over: Partial<PreflightInput> = {}): PreflightInput {
  return {
    address: '10.0.0.5',
    username: 'Administrator',
    privateKey: ED25519,
    port: 22,
    timeoutMs: 2000,
    platform: 'None',
    vxlanPort: 4789,
    prerequisites: ANY_BUILD,
    ...over,
  };
}

const statuses = (r: { findings: readonly { check: string; status: string }[] }): string =>
  r.findings.map((f) => `${f.check}:${f.status}`).join(' ');

test('a healthy host: one observe (firewall ports by number, no pins kept), every check passes', async (t) => {
  const { ports, log } = fakes(healthyState());
  const r = await runPreflight(input(), ports);
  t.true(r.ok);
  t.is(r.findings.length, 10);
  t.true(r.findings.every((f) => f.status === 'pass'));
  t.deepEqual(log.probed, ['10.0.0.5:22']);
  t.is(log.queries.length, 1);
  t.deepEqual(
    log.queries[0]?.firewallPorts?.map((p) => p.localPort),
    [10250, 9182, 4789],
  );
  t.deepEqual(log.queries[0]?.checkFolders, ['C:\\ProgramData\\wmco', 'C:\\k', 'C:\\Temp']);
  t.is(log.opened[0]?.authRetryMs, 0);
  t.true(log.opened[0]?.hostKeys instanceof InMemoryHostKeyStore);
  t.is(log.closed, 1);
  t.deepEqual(r.notes, []);
});

test('address: a DNS name resolving to IPv4 is used by its first IPv4 address', async (t) => {
  const { ports, log } = fakes(healthyState());
  const r = await runPreflight(input({ address: 'win.example.com', port: 2222 }), ports);
  t.is(r.ipv4, '10.0.0.7');
  t.regex(r.findings[0]?.detail ?? '', /win\.example\.com resolves to 10\.0\.0\.7/);
  t.deepEqual(log.probed, ['10.0.0.7:2222']);
});

for (const [address, why] of [
  ['fe80::1', /IPv6 addresses are not supported/],
  ['win_host!', /neither an IPv4 address nor a valid DNS name/],
  ['nowhere.example.com', /cannot resolve: NXDOMAIN/],
] as const) {
  test(`address: '${address}' fails and everything else is skipped`, async (t) => {
    const { ports, log } = fakes(healthyState());
    const r = await runPreflight(input({ address }), ports);
    t.false(r.ok);
    t.regex(r.findings[0]?.detail ?? '', why);
    t.is(
      statuses(r),
      `address:fail ${r.findings
        .slice(1)
        .map((f) => `${f.check}:skip`)
        .join(' ')}`,
    );
    t.regex(r.findings[1]?.detail ?? '', /the address check failed/);
    t.is(log.probed.length, 0);
  });
}

test('a bad username is an error, not a finding', async (t) => {
  const { ports } = fakes(healthyState());
  await t.throwsAsync(runPreflight(input({ username: 'a;b' }), ports), {
    message: /not a valid Windows account/,
  });
});

test('reachability: a refused connection fails and names sshd; no SSH attempt', async (t) => {
  const { ports, log } = fakes(healthyState(), {
    probeTcp: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:22')),
  });
  const r = await runPreflight(input(), ports);
  t.regex(statuses(r), /^address:pass reachability:fail ssh:skip shell:skip/);
  t.regex(r.findings[1]?.fix ?? '', /Start-Service sshd/);
  t.is(log.opened.length, 0);
});

test('ssh: an unusable key fails without connecting', async (t) => {
  const { ports, log } = fakes(healthyState());
  const r = await runPreflight(input({ privateKey: 'not a key' }), ports);
  t.regex(statuses(r), /ssh:fail shell:skip/);
  t.regex(r.findings[2]?.detail ?? '', /private key: cannot parse it/);
  t.is(log.opened.length, 0);
});

test('ssh: a refused key fails and names administrators_authorized_keys', async (t) => {
  const err = new AuthenticationError(
    '10.0.0.5',
    'Administrator',
    'All configured authentication methods failed',
  );
  const { ports, log } = fakes(err);
  const r = await runPreflight(input(), ports);
  t.regex(statuses(r), /reachability:pass ssh:fail shell:skip .*firewall:skip$/);
  t.regex(r.findings[2]?.fix ?? '', /C:\\ProgramData\\ssh\\administrators_authorized_keys/);
  t.regex(r.findings[2]?.detail ?? '', /refused public key SHA256:/);
  t.is(log.closed, 1);
});

test('ssh: no handshake (not an SSH server) fails', async (t) => {
  const { ports } = fakes(new HostUnreachableError('10.0.0.5', 'Timed out while waiting for handshake'));
  const r = await runPreflight(input(), ports);
  t.regex(statuses(r), /ssh:fail shell:skip/);
  t.regex(r.findings[2]?.detail ?? '', /handshake/);
});

test('ssh: a weak RSA key warns but the checks go on', async (t) => {
  const { ports } = fakes(healthyState());
  const r = await runPreflight(input({ privateKey: RSA1024 }), ports);
  t.true(r.ok);
  t.regex(statuses(r), /ssh:warn shell:pass/);
  t.regex(r.findings[2]?.detail ?? '', /RSA with 1024 bits/);
});

test('shell: authenticated but the host module cannot run fails the shell check', async (t) => {
  const { ports } = fakes(
    new HostProtocolError('10.0.0.5', "exit 1; output ''; 'powershell.exe' is not recognized"),
  );
  const r = await runPreflight(input(), ports);
  t.regex(statuses(r), /ssh:pass shell:fail folders:skip os-build:skip/);
  t.regex(r.findings[3]?.detail ?? '', /not recognized/);
});

test('a platform without prerequisites skips os-build and checks the rest', async (t) => {
  const { ports } = fakes(healthyState());
  const r = await runPreflight(input({ prerequisites: undefined, platform: 'KubeVirt' }), ports);
  t.true(r.ok);
  t.regex(statuses(r), /os-build:skip containers:pass/);
  t.regex(r.findings[5]?.detail ?? '', /KubeVirt declares no supported Windows builds/);
});

test('folders: one the host module would refuse fails with its reason and fix; the rest still run', async (t) => {
  const problem = {
    path: 'C:\\k',
    reason: 'is a Junction to C:\\Users\\eve\\k (a reparse point)',
    fix: 'remove the link, not its target (cmd /c rmdir "C:\\k")',
  };
  const { ports } = fakes(healthyState({ folderProblems: [problem] }));
  const r = await runPreflight(input(), ports);
  t.false(r.ok);
  t.regex(statuses(r), /shell:pass folders:fail os-build:pass/);
  const folders = r.findings.find((f) => f.check === 'folders');
  t.is(folders?.detail, 'C:\\k is a Junction to C:\\Users\\eve\\k (a reparse point)');
  t.is(folders?.fix, 'C:\\k: remove the link, not its target (cmd /c rmdir "C:\\k")');
});

test('folders: a working area refused at first contact fails the folders check, the shell ran', async (t) => {
  const refusal =
    'folder C:\\ProgramData\\wmco lets non-administrators write: BUILTIN\\Users (S-1-5-32-545) CreateFiles, so the ' +
    'operator will not use it. Fix: delete it if nothing else uses it';
  const { ports } = fakes(new HostFolderRefusedError('10.0.0.5', refusal));
  const r = await runPreflight(input(), ports);
  t.regex(statuses(r), /ssh:pass shell:pass folders:fail os-build:skip/);
  const folders = r.findings.find((f) => f.check === 'folders');
  t.regex(
    folders?.detail ?? '',
    /^folder C:\\ProgramData\\wmco lets non-administrators write: .*will not use it\.$/,
  );
  t.is(folders?.fix, 'delete it if nothing else uses it');
});
