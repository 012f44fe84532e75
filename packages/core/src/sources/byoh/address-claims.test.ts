import test from 'ava';
import { AddressClaims } from './address-claims.js';

const live = (...keys: string[]): Set<string> => new Set(keys);

test('the first key to claim a host owns it; the later key is refused', (t) => {
  const c = new AddressClaims();
  const keys = live('10.0.0.5', 'win-a.example');
  t.is(c.claim('10.0.0.5', '10.0.0.5', keys), undefined);
  t.is(c.claim('win-a.example', '10.0.0.5', keys), '10.0.0.5');
  // asking again changes nothing
  t.is(c.claim('10.0.0.5', '10.0.0.5', keys), undefined);
  t.is(c.claim('win-a.example', '10.0.0.5', keys), '10.0.0.5');
});

test('the key a Node was joined as owns the host, whoever asked first', (t) => {
  const c = new AddressClaims();
  const keys = live('10.0.0.5', 'win-a.example');
  t.is(c.claim('10.0.0.5', '10.0.0.5', keys, 'win-a.example'), 'win-a.example');
  t.is(c.claim('win-a.example', '10.0.0.5', keys, 'win-a.example'), undefined);
});

test('a Node joined as a key that left the ConfigMap does not block the remaining key', (t) => {
  const c = new AddressClaims();
  t.is(c.claim('10.0.0.5', '10.0.0.5', live('10.0.0.5'), 'old.example'), undefined);
});

test('a removed key releases its host', (t) => {
  const c = new AddressClaims();
  t.is(c.claim('a.example', '10.0.0.5', live('a.example', 'b.example')), undefined);
  t.is(c.claim('b.example', '10.0.0.5', live('a.example', 'b.example')), 'a.example');
  t.is(c.claim('b.example', '10.0.0.5', live('b.example')), undefined);
  t.is(c.owner('10.0.0.5'), 'b.example');
});

test('a name that now resolves elsewhere releases its old host', (t) => {
  const c = new AddressClaims();
  const keys = live('a.example', 'b.example');
  t.is(c.claim('a.example', '10.0.0.5', keys), undefined);
  t.is(c.claim('a.example', '10.0.0.6', keys), undefined);
  t.is(c.claim('b.example', '10.0.0.5', keys), undefined);
  t.is(c.claim('b.example', '10.0.0.6', keys), 'a.example');
});

test('a claim looks at the live keys a fixed number of times, however many hosts are claimed', (t) => {
  let looks = 0;
  class CountingSet extends Set<string> {
    override has(k: string): boolean {
      looks++;
      return super.has(k);
    }
  }
  const keys = Array.from({ length: 1000 }, (_, i) => `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`);
  const c = new AddressClaims();
  const live = new CountingSet(keys);
  for (const k of keys) t.is(c.claim(k, k, live), undefined);
  t.true(looks <= 4 * keys.length, `${looks} looks for ${keys.length} claims`);
  t.is(c.owner(keys[999]!), keys[999]);
});
