import type { ServerChannel } from 'ssh2';

/** 64 KiB of printable noise, written again and again: one endless line, or short lines. */
const CHUNK = Buffer.alloc(64 * 1024, 'A');
const LINES = Buffer.from('x\r\n'.repeat(16 * 1024));

/**
 * A host that prints without end: writes as fast as the SSH window allows (respecting back-pressure, so
 * the simulator itself stays bounded) until the client closes the channel or the connection drops; `written` counts what it wrote.
 */
export function streamEndlessOutput(
  channel: ServerChannel,
  shape: true | 'lines' = true,
  written: (bytes: number) => void = () => undefined,
): void {
  const chunk = shape === 'lines' ? LINES : CHUNK;
  let open = true;
  const stop = (): void => {
    open = false;
  };
  channel.once('close', stop);
  channel.once('error', stop);
  channel.on('data', () => undefined);
  const pump = (): void => {
    for (let i = 0; open && i < 16; i++) {
      written(chunk.length);
      if (!channel.write(chunk)) {
        channel.once('drain', pump);
        return;
      }
    }
    // Yield to the event loop between bursts, so the host's other connections keep being served.
    if (open) setImmediate(pump);
  };
  pump();
}
