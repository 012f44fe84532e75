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

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const meta = (mc: Obj, key: string): string => {
  const v = obj(mc['metadata'])[key];
  return typeof v === 'string' ? v : '';
};

/**
 * The kubelet unit of the newest `rendered-worker-*` MachineConfig with a non-empty config (upstream picks
 * the latest by creation time), or undefined when there is none.
 */
export function renderedWorkerKubeletUnit(machineConfigs: readonly unknown[]): string | undefined {
  const rendered = machineConfigs
    .map(obj)
    .filter((mc) => meta(mc, 'name').startsWith('rendered-worker-'))
    .filter((mc) => Object.keys(obj(obj(mc['spec'])['config'])).length > 0)
    .sort((a, b) => meta(b, 'creationTimestamp').localeCompare(meta(a, 'creationTimestamp')));
  const units = obj(obj(obj(rendered[0]?.['spec'])['config'])['systemd'])['units'];
  const kubelet = (Array.isArray(units) ? units : []).map(obj).find((u) => u['name'] === 'kubelet.service');
  return typeof kubelet?.['contents'] === 'string' ? kubelet['contents'] : undefined;
}
