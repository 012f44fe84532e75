import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { containerStages, globalArgs, type Stage } from './containerfile-stages.js';
import { REPO_ROOT } from './repo-root.js';

// No image can be built here, so the Containerfile's payload stages are read and followed by hand: which
// stage or image the final /payload comes from, with and without PAYLOAD_IMAGE, and which of its paths.

type Tree = Map<string, string>;

/**
 * The files a stage holds after its COPY lines, starting from its base's. `bases`: images, and named build
 * contexts, which replace a stage of the same name (as `--build-context payload=<dir>` does).
 */
function follow(stages: readonly Stage[], target: string, bases: ReadonlyMap<string, Tree>): Tree {
  const stage = stages.find((s) => s.name === target);
  if (!stage || bases.has(target)) return bases.get(target) ?? new Map<string, string>();
  const tree: Tree = new Map(stage.from === 'scratch' ? [] : follow(stages, stage.from, bases));
  for (const c of stage.copies.filter((x) => x.from !== undefined)) {
    const source = follow(stages, c.from!, bases);
    const prefix = c.src.endsWith('/') ? c.src : `${c.src}/`;
    for (const [path, body] of source)
      if (path.startsWith(prefix))
        tree.set(`${c.dest.replace(/\/$/, '')}/${path.slice(prefix.length)}`, body);
  }
  return tree;
}

async function finalPayload(
  buildArgs: Record<string, string>,
  bases: ReadonlyMap<string, Tree>,
): Promise<Tree> {
  const text = await readFile(join(REPO_ROOT, 'Containerfile'), 'utf8');
  const args = new Map([...globalArgs(text), ...Object.entries(buildArgs)]);
  const stages = containerStages(text, args);
  const final = { ...stages.at(-1)!, name: '(final)' };
  const tree = follow([...stages.slice(0, -1), final], '(final)', bases);
  return new Map([...tree].filter(([p]) => p.startsWith('/payload/')));
}

const upstreamImage: Tree = new Map([
  ['/payload/kube-node/kubelet.exe.tar.gz', 'kubelet'],
  ['/payload/sha256sum', 'sums'],
  ['/usr/bin/manager', 'the Go operator'],
]);

test('PAYLOAD_IMAGE: the final /payload is that image’s /payload, and nothing else of it', async (t) => {
  const image = 'registry.example.com/wmco/payload:v1.36';
  const bases = new Map([[image, upstreamImage]]);
  const payload = await finalPayload({ PAYLOAD_IMAGE: image }, bases);
  t.deepEqual([...payload.keys()].sort(), ['/payload/kube-node/kubelet.exe.tar.gz', '/payload/sha256sum']);
});

test('without PAYLOAD_IMAGE the named build context `payload` is /payload, as before', async (t) => {
  const context: Tree = new Map([
    ['/kubelet.exe', 'kubelet'],
    ['/sha256sum', 'sums'],
  ]);
  const payload = await finalPayload({}, new Map([['payload', context]]));
  t.deepEqual([...payload.keys()].sort(), ['/payload/kubelet.exe', '/payload/sha256sum']);
  t.is((await finalPayload({}, new Map())).size, 0, 'no context: an empty /payload');
});

test('PAYLOAD_IMAGE is a global build argument, so FROM lines can use it', async (t) => {
  const text = await readFile(join(REPO_ROOT, 'Containerfile'), 'utf8');
  t.is(globalArgs(text).get('PAYLOAD_IMAGE'), 'payload-folder');
  t.regex(text, /^FROM \$\{PAYLOAD_IMAGE\} AS payload-source$/m);
});
