import type { KubeConfig } from '@kubernetes/client-node';
import type { GatherOutput } from './gather-output.js';
import { getNodeLog } from './node-log-client.js';

/** How far below C:\var\log the walk goes, and how many files one node may add. */
const MAX_DEPTH = 3;
const MAX_FILES_PER_NODE = 200;
/** A listing larger than this is not a folder listing we can use. */
const LISTING_CAP = 1024 * 1024;

/** The entries of a kubelet `/logs/` folder listing (Go FileServer HTML: `<a href="name">`). */
export function listingEntries(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<a href="([^"]*)">/g)) {
    let name: string;
    try {
      name = decodeURIComponent(m[1] ?? '');
    } catch {
      continue;
    }
    const bare = name.replace(/\/$/, '');
    if (bare === '' || bare === '.' || bare === '..' || bare.includes('/') || bare.includes('\\')) continue;
    out.push(name);
  }
  return out;
}

interface Walk {
  readonly out: GatherOutput;
  readonly kc: KubeConfig;
  readonly node: string;
  readonly cap: number;
  files: number;
}

async function fetchFile(w: Walk, rel: string): Promise<void> {
  const answer = await getNodeLog(w.kc, w.node, rel, w.cap);
  if (answer.status !== 200) {
    w.out.note(`node ${w.node} log ${rel}: HTTP ${answer.status}`);
    return;
  }
  await w.out.file(`nodes/${w.node}/logs/${rel}`, answer.body);
  w.files++;
  if (answer.totalBytes > answer.body.length)
    w.out.note(
      `node ${w.node} log ${rel}: kept the last ${answer.body.length} of ${answer.totalBytes} bytes`,
    );
}

async function walk(w: Walk, dir: string, depth: number): Promise<void> {
  const listing = await getNodeLog(w.kc, w.node, dir, LISTING_CAP);
  if (listing.status !== 200) {
    const reason = listing.body.toString('utf8').slice(0, 300).trim();
    throw new Error(`listing /logs/${dir}: HTTP ${listing.status} ${reason}`);
  }
  for (const entry of listingEntries(listing.body.toString('utf8'))) {
    if (w.files >= MAX_FILES_PER_NODE) {
      w.out.note(`node ${w.node}: stopped at ${MAX_FILES_PER_NODE} files`);
      return;
    }
    if (!entry.endsWith('/')) await fetchFile(w, `${dir}${entry}`);
    else if (depth < MAX_DEPTH) await walk(w, `${dir}${entry}`, depth + 1);
  }
}

/**
 * Each Windows node's service logs (kubelet, kube-proxy, hybrid-overlay, containerd, csi-proxy,
 * windows_exporter, cloud-node-manager: everything under `C:\var\log`), read through the API server's
 * node proxy into `nodes/<node>/logs/`, each file cut to its last `capBytes`. A node whose kubelet does
 * not answer is noted and skipped.
 */
export async function gatherNodeLogs(
  out: GatherOutput,
  kc: KubeConfig,
  nodes: readonly string[],
  capBytes: number,
): Promise<void> {
  for (const node of nodes) {
    const w: Walk = { out, kc, node, cap: capBytes, files: 0 };
    try {
      await walk(w, '', 0);
      out.note(`node ${node}: ${w.files} log files`);
    } catch (e) {
      out.note(`node ${node} logs: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
