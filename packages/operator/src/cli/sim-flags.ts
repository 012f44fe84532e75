import type { SimOptions } from './sim-command.js';

/** The platforms whose Machines the simulated machine-api creates (`--machinesets`). */
const MACHINE_API_PLATFORMS = ['AWS', 'Azure', 'GCP', 'VSphere', 'Nutanix'];

function integerProblem(flag: string, raw: string | undefined, min: number, max: number): string[] {
  if (raw === undefined) return [];
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max
    ? []
    : [`${flag}: "${raw}" is not a number from ${min} to ${max}`];
}

/** `--platform`: a name one of this build's providers serves, as OpenShift spells it (`AWS`, not `aws`). */
function platformProblem(platform: string, served: readonly string[]): string[] {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(platform))
    return [`--platform: "${platform}" is not a platform type name (e.g. None, AWS, Azure)`];
  if (served.length === 0 || served.includes(platform)) return [];
  const spelled = served.find((p) => p.toLowerCase() === platform.toLowerCase());
  const hint = spelled ? `: did you mean ${spelled}?` : ` (one of ${served.join(', ')})`;
  return [`--platform: "${platform}" is not a platform this build serves${hint}`];
}

const given = (...values: unknown[]): boolean => values.some((v) => v !== undefined && v !== false);
const worldOf = (o: SimOptions): boolean => given(o.hosts, o.hostsFile, o.machinesets);

/** Flags that only mean something next to another flag: when each rule holds, its message. */
const PAIRING_RULES: readonly [(o: SimOptions) => boolean, string][] = [
  [(o) => given(o.hosts) && given(o.hostsFile), '--hosts and --hosts-file cannot be used together'],
  [
    (o) => !given(o.cluster) && given(o.seed, o.bootstrapGroup, o.cleanup),
    '--seed, --bootstrap-group and --cleanup apply only with --cluster',
  ],
  [
    (o) => given(o.cluster) && given(o.keep, o.kubeconfigOut),
    '--cluster starts no API server: --keep and --kubeconfig-out do not apply',
  ],
  [
    (o) => given(o.cluster) && given(o.machinesets),
    '--machinesets applies to the simulated cluster, not with --cluster',
  ],
  [(o) => given(o.replicas) && !given(o.machinesets), '--replicas needs --machinesets'],
  [(o) => given(o.maxUnavailable) && !given(o.upgradeAfter), '--max-unavailable needs --upgrade-after'],
  [
    (o) => given(o.upgradeAfter) && !worldOf(o),
    '--upgrade-after needs --hosts, --hosts-file or --machinesets',
  ],
  [
    (o) => given(o.logOut) && !given(o.cluster) && !worldOf(o),
    '--log-out applies with --cluster, --hosts, --hosts-file or --machinesets (an operator runs)',
  ],
];

function pairingProblems(o: SimOptions): string[] {
  return PAIRING_RULES.filter(([holds]) => holds(o)).map(([, message]) => message);
}

/**
 * Everything wrong with `wmco sim`'s flags, found before anything starts (an API server, a host, a cloud),
 * so a contradiction fails at once instead of after a start or a timeout. `served`: the platforms this
 * build's providers serve (none known: not checked).
 */
export function simFlagProblems(o: SimOptions, served: readonly string[]): string[] {
  const machines =
    o.machinesets !== undefined && !MACHINE_API_PLATFORMS.includes(o.platform)
      ? [
          `--machinesets needs a platform with a Machine API (${MACHINE_API_PLATFORMS.join(', ')}), not ${o.platform}`,
        ]
      : [];
  return [
    ...platformProblem(o.platform, served),
    ...pairingProblems(o),
    ...machines,
    ...integerProblem('--hosts', o.hosts, 1, 50),
    ...integerProblem('--machinesets', o.machinesets, 1, 10),
    ...integerProblem('--replicas', o.replicas, 1, 20),
    ...integerProblem('--timeout', o.timeout, 1, 3600),
    ...integerProblem('--upgrade-after', o.upgradeAfter, 0, 3600),
  ];
}
