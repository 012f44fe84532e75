import test from 'ava';
import { providerCapabilities } from '@wmco/core/provider';
import { noneProvider } from './none-provider.js';

test('serves None and BareMetal', (t) => {
  t.deepEqual(noneProvider.platforms, ['None', 'BareMetal']);
});

test('registers only its prerequisites: no Machine API, so no machine access or user data', (t) => {
  t.deepEqual(providerCapabilities(noneProvider), ['platform.platform-prerequisites']);
});
