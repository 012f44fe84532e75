/** The Linux workers' kubelet flags a Windows kubelet copies (reference §1.6 step 2, `pkg/ignition`). */
export interface CloudKubeletArgs {
  readonly cloudProvider?: string;
  readonly cloudConfig?: string;
}

/** The kubelet unit has no `ExecStart=` (upstream's parseKubeletArgs fails the same way). */
export class KubeletUnitError extends Error {
  constructor(why: string) {
    super(`kubelet.service of the rendered worker MachineConfig: ${why}`);
    this.name = 'KubeletUnitError';
  }
}

/**
 * Upstream's `parseKubeletArgs`: the `ExecStart=` block up to the first blank line, arguments split at
 * `\` + newline, and only `--cloud-provider` and `--cloud-config` kept.
 */
export function parseKubeletArgs(unit: string): CloudKubeletArgs {
  const lines = unit.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith('ExecStart='));
  if (start < 0) throw new KubeletUnitError('no ExecStart');
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  const block = lines.slice(start, end < 0 ? undefined : end).join('\n');
  const out: Record<string, string> = {};
  for (const part of block.split(/\\\n/)) {
    const m = /^\s*--(cloud-provider|cloud-config)=(\S*)\s*$/.exec(part);
    if (m?.[1] && m[2] !== undefined) out[m[1] === 'cloud-provider' ? 'cloudProvider' : 'cloudConfig'] = m[2];
  }
  return out;
}
