import test from 'ava';
import { bindParameters } from './parameter-binding.js';
import { statements, tokenizePowerShell } from './powershell-tokens.js';

test('words, quoted strings and parameters', (t) => {
  t.deepEqual(tokenizePowerShell(`C:\\Temp\\x.ps1 -a 'it''s' -b:"q""d" plain#not-comment # comment`), [
    { kind: 'word', text: 'C:\\Temp\\x.ps1', expandable: false },
    { kind: 'parameter', name: 'a' },
    { kind: 'word', text: "it's", expandable: false },
    { kind: 'parameter', name: 'b', attached: 'q"d' },
    { kind: 'word', text: 'plain#not-comment', expandable: false },
  ]);
});

test('quoted dashes are values, not parameters; adjacent quotes join one word', (t) => {
  t.deepEqual(tokenizePowerShell(`'-x' ab'c d'`), [
    { kind: 'word', text: '-x', expandable: false },
    { kind: 'word', text: 'abc d', expandable: false },
  ]);
});

test('anything PowerShell would expand or run is marked, never evaluated', (t) => {
  const tokens = tokenizePowerShell(`a $env:X "v $(calc)" @(1) | b & c > d; e`);
  t.deepEqual(
    tokens.map((x) =>
      x.kind === 'word' ? `${x.text}${x.expandable ? '*' : ''}` : x.kind === 'operator' ? `op${x.text}` : '',
    ),
    ['a', '$env:X*', 'v $(calc)*', 'op@(', '1', 'op)', 'op|', 'b', 'op&', 'c', 'op>', 'd', 'op;', 'e'],
  );
  t.is(statements(tokens).length, 2);
  t.deepEqual(tokenizePowerShell("'$(calc)'"), [{ kind: 'word', text: '$(calc)', expandable: false }]);
});

test('an unterminated string is a parse error', (t) => {
  t.throws(() => tokenizePowerShell("a 'b"), { message: /missing the terminator: '/ });
});

test('binding: names, prefixes, positions, types and mandatory parameters', (t) => {
  const specs = [
    { name: 'hostnameOverride', type: 'string', mandatory: true },
    { name: 'verbosity', type: 'int', mandatory: true },
    { name: 'Force', type: 'switch' },
  ] as const;
  const bind = (line: string): unknown => Object.fromEntries(bindParameters(specs, tokenizePowerShell(line)));
  t.deepEqual(bind('-HOSTNAMEOVERRIDE n1 -verb 4 -Force'), {
    hostnameOverride: 'n1',
    verbosity: 4,
    Force: true,
  });
  t.deepEqual(bind('n1 2'), { hostnameOverride: 'n1', verbosity: 2 });
  t.throws(() => bind('-hostnameOverride n1'), { message: /missing mandatory parameters: verbosity\./ });
  t.throws(() => bind('-hostnameOverride n1 -verbosity x'), {
    message: /Cannot convert value "x" to type "System.Int32"/,
  });
  t.throws(() => bind('-nope 1'), {
    message: "A parameter cannot be found that matches parameter name 'nope'.",
  });
  t.throws(() => bind('-hostnameOverride'), {
    message: /Missing an argument for parameter 'hostnameOverride'/,
  });
  t.throws(() => bind('a 1 extra'), {
    message: /positional parameter cannot be found that accepts argument 'extra'/,
  });
});
