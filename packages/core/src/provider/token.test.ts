import test from 'ava';
import { ALL_CAPABILITIES } from './capabilities/all-capabilities.js';
import { token, tokenId } from './token.js';

test('a token is a registered symbol, so two copies of core agree on it', (t) => {
  const a = token<string>('example.my-thing');
  t.is(typeof a, 'symbol');
  t.is(a, Symbol.for('wmco:example.my-thing'));
  t.is(token<string>('example.my-thing'), a);
});

test('tokenId gives back the id', (t) => {
  t.is(tokenId(token('platform.metadata-routes')), 'platform.metadata-routes');
  t.is(tokenId(Symbol('plain')), 'plain');
});

for (const id of [
  '',
  'platform',
  'Platform.x',
  'platform.MetadataRoutes',
  'platform.metadata_routes',
  'platform.-x',
  'platform..x',
]) {
  test(`refuses the token id ${JSON.stringify(id)}`, (t) => {
    t.throws(() => token(id), { instanceOf: TypeError, message: /must look like '<area>.<kebab-name>'/ });
  });
}

test('every capability of the contract has a distinct platform.* token', (t) => {
  const ids = ALL_CAPABILITIES.map(tokenId);
  t.is(new Set(ids).size, 11);
  t.true(ids.every((id) => /^platform\.[a-z-]+$/.test(id)));
});
