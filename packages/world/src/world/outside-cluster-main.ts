/**
 * A plain Kubernetes cluster (the simulated API server with RBAC enforced and kube-controller-manager's
 * controllers, no OpenShift) in a process of its own, for attach-mode tests: it is reached only through
 * the admin kubeconfig it writes, like kind or k3s. Every authorization decision is appended to the audit
 * file as a JSON line {user, groups, verb, resource, allowed}. A line `snapshot FILE` on stdin writes the
 * keys of every stored object (`group/resource namespace/name`, sorted) to FILE as a JSON array, then
 * prints `snapshot written`. Runs until SIGTERM or SIGINT.
 *
 *   node dist/world/outside-cluster-main.js <admin-kubeconfig-out> <audit-out>
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startBareCluster, type BareCluster } from '@wmco/sim';

function snapshot(cluster: BareCluster, file: string): void {
  const keys: string[] = [];
  for (const t of cluster.server.registry.all())
    for (const o of cluster.server.writer.store.all(t)) {
      const m = (o['metadata'] ?? {}) as { namespace?: string; name?: string };
      keys.push(`${t.group}/${t.plural} ${m.namespace ?? ''}/${m.name ?? ''}`);
    }
  writeFileSync(file, JSON.stringify(keys.sort()));
  process.stdout.write('snapshot written\n');
}

async function main(kubeconfigOut: string, auditOut: string): Promise<void> {
  const cluster = await startBareCluster({ rbac: true });
  const authorizer = cluster.server.ctx.authorizer;
  if (!authorizer.rbac) throw new Error('RBAC is not enforced');
  const allowed = authorizer.allowed.bind(authorizer);
  writeFileSync(auditOut, '');
  authorizer.allowed = (a) => {
    const ok = allowed(a);
    const r = a.resource;
    const resource = r
      ? `${r.group === '' ? '' : `${r.group}/`}${r.resource}${r.subresource ? `/${r.subresource}` : ''}`
      : a.path;
    appendFileSync(
      auditOut,
      `${JSON.stringify({ user: a.user.name, groups: a.user.groups, verb: a.verb, resource, allowed: ok })}\n`,
    );
    return ok;
  };
  await cluster.server.writeKubeconfig(kubeconfigOut, cluster.server.admin);
  process.stdout.write(`ready ${cluster.server.url}\n`);
  const commands = createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    const m = /^snapshot (.+)$/.exec(line);
    if (m?.[1] !== undefined) snapshot(cluster, m[1]);
  });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  commands.close();
  process.stdin.destroy();
  await cluster.stop();
  for (const e of cluster.errors)
    process.stderr.write(`controller ${e.controller} failed: ${String(e.error)}\n`);
}

const [kubeconfigOut, auditOut] = process.argv.slice(2);
if (kubeconfigOut === undefined || auditOut === undefined) {
  process.stderr.write('usage: outside-cluster-main.js <admin-kubeconfig-out> <audit-out>\n');
  process.exitCode = 2;
} else {
  main(kubeconfigOut, auditOut).catch((e: unknown) => {
    process.stderr.write(`${String(e)}\n`);
    process.exitCode = 1;
  });
}
