import test from 'ava';
import { renderJsonPath } from './kube-jsonpath.js';

const list = {
  kind: 'List',
  items: [
    {
      metadata: { name: 'win-a', annotations: { 'k8s.io/zone': 'z1' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }], count: 2 },
    },
    {
      metadata: { name: 'win-b', annotations: {} },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    },
  ],
};

// The examples of kubectl's "JSONPath Support" page, on a list of the same shape.
test('kubectl expressions: fields, [*], indexes, slices, recursive descent', (t) => {
  t.is(renderJsonPath('{.kind}', list), 'List');
  t.is(renderJsonPath('{.items[*].metadata.name}', list), 'win-a win-b');
  t.is(renderJsonPath('{.items[0].metadata.name}', list), 'win-a');
  t.is(renderJsonPath('{.items[-1:].metadata.name}', list), 'win-b');
  t.is(renderJsonPath('{$.items[1].metadata.name}', list), 'win-b');
  t.is(renderJsonPath('{..name}', list), 'win-a win-b');
  t.is(renderJsonPath('{.items[0].status.count}', list), '2');
});

test('escaped dots, quoted keys, filters, objects as JSON, missing keys print nothing', (t) => {
  t.is(renderJsonPath('{.items[0].metadata.annotations.k8s\\.io/zone}', list), 'z1');
  t.is(renderJsonPath("{.items[0].metadata.annotations['k8s.io/zone']}", list), 'z1');
  t.is(renderJsonPath('{.items[?(@.status.conditions[0].status=="True")].metadata.name}', list), 'win-a');
  t.is(renderJsonPath('{.items[1].metadata.annotations}', list), '{}');
  t.is(renderJsonPath('{.items[0].nothing.here}', list), '');
});

test('literal text, string literals and range/end loops (nested)', (t) => {
  t.is(
    renderJsonPath(
      '{range .items[*]}{.metadata.name}{"\\t"}{.status.conditions[0].status}{"\\n"}{end}',
      list,
    ),
    'win-a\tTrue\nwin-b\tFalse\n',
  );
  t.is(
    renderJsonPath('names: {range .items[*]}[{range .status.conditions[*]}{@.type}{end}]{end}', list),
    'names: [Ready][Ready]',
  );
  t.is(renderJsonPath("{'a\\tb'}", list), 'a\tb');
});

test('a malformed template is an error naming it', (t) => {
  t.throws(() => renderJsonPath('{.items', list), { message: /unclosed \{/ });
  t.throws(() => renderJsonPath('{range .items[*]}{.kind}', list), { message: /range\} without \{end/ });
  t.throws(() => renderJsonPath('{.kind}{end}', list), { message: /\{end\} without \{range/ });
});
