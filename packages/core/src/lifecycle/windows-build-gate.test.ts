import test from 'ava';
import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  type WindowsBuild,
} from '../provider/types/windows-build.js';
import { refuseUnsupportedBuild, UnsupportedWindowsBuildError } from './windows-build-gate.js';

const vsphere2022: WindowsBuild = { ...WINDOWS_SERVER_2022, minRevision: 681, note: 'KB5012637' };
const builds = { platform: 'VSphere', supported: [WINDOWS_SERVER_2019, vsphere2022] };

test('a supported build at or above its minimum revision passes', (t) => {
  t.notThrows(() => refuseUnsupportedBuild({ build: 20348, ubr: 681 }, builds));
  t.notThrows(() => refuseUnsupportedBuild({ build: 17763, ubr: 1 }, builds));
});

test('another build, or one below the minimum revision, is refused naming the build and the fix', (t) => {
  const old = t.throws(() => refuseUnsupportedBuild({ build: 14393, ubr: 6897 }, builds), {
    instanceOf: UnsupportedWindowsBuildError,
  });
  t.is(
    old.message,
    'OS build 14393.6897 is not supported on platform VSphere; supported: Windows Server 2019 (17763), Windows Server 2022 (20348); nothing was changed on the host: use one of: Windows Server 2019 (17763), Windows Server 2022 (20348)',
  );
  const early = t.throws(() => refuseUnsupportedBuild({ build: 20348, ubr: 350 }, builds), {
    instanceOf: UnsupportedWindowsBuildError,
  });
  t.regex(
    early.message,
    /^Windows Server 2022 20348\.350 is older than 20348\.681 \(KB5012637\); .*\(at least OS build 20348\.681/,
  );
});

test('a provider that states no builds checks nothing', (t) => {
  t.notThrows(() => refuseUnsupportedBuild({ build: 1, ubr: 0 }, undefined));
  t.notThrows(() => refuseUnsupportedBuild({ build: 1, ubr: 0 }, { platform: 'X', supported: [] }));
});
