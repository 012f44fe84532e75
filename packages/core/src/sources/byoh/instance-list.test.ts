import test from 'ava';
import { instanceListInformer, type InstanceList } from './instance-list.js';

class Hosts implements InstanceList {
  hosts: Record<string, string> | undefined;
  private changed: (() => void) | undefined;
  started = 0;
  stopped = 0;

  start(changed: () => void): Promise<void> {
    this.started++;
    this.changed = changed;
    this.hosts ??= {};
    return Promise.resolve();
  }
  stop(): void {
    this.stopped++;
    this.hosts = undefined;
  }
  get synced(): boolean {
    return this.hosts !== undefined;
  }
  instances(): Readonly<Record<string, string>> | undefined {
    return this.hosts;
  }
  set(hosts: Record<string, string>): void {
    this.hosts = hosts;
    this.changed?.();
  }
}

test('the list reads as one windows-instances ConfigMap, and each change is one update of it', async (t) => {
  const hosts = new Hosts();
  const informer = instanceListInformer(hosts);
  t.deepEqual(informer.list(), [], 'nothing listed before the start');
  const seen: (Record<string, string> | undefined)[] = [];
  for (const ev of ['add', 'update', 'delete'] as const) informer.on(ev, (cm) => seen.push(cm.data));
  await informer.start();
  t.true(informer.synced);
  hosts.set({ '10.0.0.5': 'username=Administrator' });
  t.deepEqual(seen, [{ '10.0.0.5': 'username=Administrator' }], 'one handler call per change');
  t.deepEqual(informer.list()[0]?.data, { '10.0.0.5': 'username=Administrator' });
  hosts.set({});
  t.deepEqual(informer.list()[0]?.data, {}, 'an empty list still lists: its hosts are gone');
  informer.stop();
  t.false(informer.synced);
  t.is(hosts.stopped, 1);
});
