import test from 'ava';
import { pruneCustomResource, type JsonSchema } from './prune.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        embedded: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object' } },
        },
      },
    },
  },
};

test('unknown fields are pruned at every level; preserve-unknown, additionalProperties and embedded kept', (t) => {
  const out = pruneCustomResource(
    {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a' },
      spec: {
        size: 1,
        bogus: true,
        items: [{ name: 'i', extra: 1 }],
        open: { anything: { deep: 1 } },
        labels: { a: 'b' },
        embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, stray: 1 },
      },
      status: { dropped: true },
    },
    schema,
  );
  t.deepEqual(out, {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'a' },
    spec: {
      size: 1,
      items: [{ name: 'i' }],
      open: { anything: { deep: 1 } },
      labels: { a: 'b' },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} },
    },
  });
});

test('the wire name is what counts: a schema without x-kubernetes-preserve-unknown-fields prunes (row 1)', (t) => {
  const lossy: JsonSchema = { type: 'object', properties: { spec: { type: 'object' } } };
  t.deepEqual(pruneCustomResource({ spec: { providerSpec: { a: 1 } } }, lossy), { spec: {} });
});

test('unknownFields lists what pruning drops (for fieldValidation), never metadata', async (t) => {
  const { unknownFields } = await import('./prune.js');
  t.deepEqual(
    unknownFields(
      {
        metadata: { name: 'a', odd: 1 },
        spec: { size: 1, bogus: 2, items: [{ name: 'x', extra: 1 }] },
        top: 1,
      },
      schema,
    ),
    ['spec.bogus', 'spec.items[0].extra', 'top'],
  );
});
