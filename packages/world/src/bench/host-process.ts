// A process of simulated Windows hosts for `pnpm bench join` (host-processes.ts starts it): the hosts a
// world would start (WorldHostSet, the same code), each on its own loopback address with its SSH server on
// port 22, their VXLAN port open and the payload known, as SimWorld.start does. Their kubelets reach the
// API server over HTTPS with the kubeconfigs the operator installs, as they do in one process. It answers
// the world process over IPC (host-process-protocol.ts), and it never outlives it: when the IPC channel
// closes (the parent ended, however), it exits. One argument: the JSON of `HostProcessTask`.
import { knowPayloadFiles } from '@wmco/sim';
import { powershellEngineFor } from '../world/host-engine.js';
import { WorldHostSet } from '../world/world-hosts.js';
import { answerHostRequest } from './host-process-answer.js';
import { HostProcessTask, HostRequest, parseMessage, type HostMessage } from './host-process-protocol.js';

function send(m: HostMessage, then?: () => void): void {
  if (process.send) process.send(m, undefined, {}, () => then?.());
  else then?.();
}

function serve(hosts: WorldHostSet): void {
  process.on('message', (m: unknown) => {
    const r = parseMessage(HostRequest, m);
    if (r instanceof Error) {
      const id = (m as { id?: unknown } | null)?.id;
      if (typeof id === 'number') send({ id, ok: false, error: r.message });
      return;
    }
    try {
      send({ id: r.id, ok: true, value: answerHostRequest(hosts, r) });
    } catch (err) {
      send({ id: r.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  });
}

async function main(): Promise<void> {
  // First of all: a host process must not outlive the process that started it.
  process.on('disconnect', () => process.exit(0));
  if (!process.send) throw new Error('a host process needs an IPC channel to its parent');
  const task = parseMessage(HostProcessTask, JSON.parse(process.argv[2] ?? 'null'));
  if (task instanceof Error) throw new Error(`the host process task: ${task.message}`);
  const hosts = await WorldHostSet.start(
    task.hostnames.map((hostname, i) => {
      const address = task.addresses?.[i];
      return address === undefined ? { hostname } : { hostname, address };
    }),
    task.authorizedKey,
    task.costs,
    powershellEngineFor(task.engine, task.dir),
  );
  hosts.allowVxlan(task.vxlanPort);
  const known = await knowPayloadFiles(task.payloadDir);
  process.once('SIGTERM', () => {
    known.forget();
    void hosts.stop().finally(() => process.exit(0));
  });
  serve(hosts);
  send({
    event: 'ready',
    hosts: hosts.hosts.map((h) => ({ address: h.address, port: h.sim.port, hostname: h.spec.hostname })),
  });
}

main().catch((err: unknown) => {
  const error = err instanceof Error ? err.message : String(err);
  process.stderr.write(`host process: ${error}\n`);
  // Exits once the message is out (or the channel is gone).
  send({ event: 'failed', error }, () => process.exit(1));
});
