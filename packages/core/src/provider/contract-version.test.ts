import test from 'ava';
import semver from 'semver';
import { CONTRACT_VERSION, contractRange, supportsContract } from './contract-version.js';

test('the contract version is a semantic version', (t) => {
  t.is(semver.valid(CONTRACT_VERSION), CONTRACT_VERSION);
});

test('a declaration is a semver range or a major version number', (t) => {
  t.is(contractRange(1), '^1.0.0');
  t.is(contractRange(0), '^0.0.0');
  t.is(contractRange(' ^1.2.0 '), '^1.2.0');
  t.is(contractRange('>=1.0.0 <3.0.0'), '>=1.0.0 <3.0.0');
  for (const bad of [1.5, -1, Number.NaN, '', 'soon', undefined, null, {}]) {
    t.is(contractRange(bad), undefined, JSON.stringify(bad));
  }
});

test('a core supports the providers whose range includes its version', (t) => {
  t.true(supportsContract('^1.0.0', '1.0.0'));
  t.true(supportsContract('^1.0.0', '1.4.2'), 'a minor release keeps every 1.x provider');
  t.true(supportsContract(1, '1.9.0'));
  t.false(supportsContract('^1.2.0', '1.1.0'), 'a provider that uses a 1.2 addition needs a 1.2 core');
  t.false(supportsContract('^1.0.0', '2.0.0'), 'a major release refuses providers written for 1.x');
  t.true(supportsContract('>=1.0.0 <3.0.0', '2.0.0'), 'a provider may declare that it works with two majors');
  t.false(supportsContract('soon', '1.0.0'));
});
