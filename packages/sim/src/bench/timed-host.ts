import type { SshWindowsHost, WindowsHost } from '@wmco/core';

/** Wraps a host so the time spent in each operation is added up (to say where the wall time goes). */
export function timed(host: SshWindowsHost, totals: Map<string, number>): WindowsHost {
  const time =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      try {
        return await fn(...args);
      } finally {
        totals.set(name, (totals.get(name) ?? 0) + (performance.now() - start) / 1000);
      }
    };
  return {
    address: host.address,
    observe: time('observe', (q) => host.observe(q)),
    upload: time('upload', (f) => host.upload(f)),
    apply: time('apply', (p) => host.apply(p)),
    reboot: () => host.reboot(),
    deconfigure: (o) => host.deconfigure(o),
    close: () => host.close(),
  };
}
