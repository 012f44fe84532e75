import test from 'ava';
import { importOptionalPeers, MissingPeerDependencyError, type OptionalPeer } from './optional-peers.js';

const PEERS: readonly OptionalPeer[] = [
  { name: 'tree-sitter', specifier: 'tree-sitter' },
  { name: 'tree-sitter-powershell', specifier: 'tree-sitter-powershell/bindings/node/index.js' },
];

function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
}

test('installed peers are returned in order', async (t) => {
  const loaded = await importOptionalPeers('feature', PEERS, (s) => Promise.resolve({ s }));
  t.deepEqual(loaded, [{ s: 'tree-sitter' }, { s: 'tree-sitter-powershell/bindings/node/index.js' }]);
});

test('a missing peer gives an error that names the feature, every peer and the install command', async (t) => {
  const loaded = await importOptionalPeers('powershellSyntaxErrors', PEERS, (s) =>
    s === 'tree-sitter' ? Promise.resolve({}) : Promise.reject(notFound(s)),
  );
  if (!(loaded instanceof MissingPeerDependencyError)) return t.fail('expected a MissingPeerDependencyError');
  t.is(loaded.code, 'MissingPeerDependency');
  t.deepEqual(loaded.packages, ['tree-sitter', 'tree-sitter-powershell']);
  t.regex(
    loaded.message,
    /^powershellSyntaxErrors needs tree-sitter and tree-sitter-powershell, optional peer/,
  );
  t.regex(loaded.message, /pnpm add -D tree-sitter tree-sitter-powershell/);
});

test('a peer that is installed but fails to load is not reported as missing', async (t) => {
  const broken = new Error('The module was compiled against a different Node.js version');
  await t.throwsAsync(
    importOptionalPeers('feature', PEERS, () => Promise.reject(broken)),
    { is: broken },
  );
});
