/**
 * `Win32_OperatingSystem.LastBootUpTime` as Windows reports it. Windows derives it from the clock minus the
 * uptime, so it is not a fixed value: two reads a moment apart differ by a fraction of a millisecond, and a
 * clock correction (a time sync, a VM resumed) moves it by the correction, without any reboot
 * (prometheus-community/windows_exporter #74 and #2336, giampaolo/psutil #1007). The module prints it with
 * `ToString('o')`: seven decimals.
 */
export class ReportedBootTime {
  /** What clock corrections since the boot moved the reported boot time by, in ms. */
  private offsetMs = 0;

  /**
   * @param stepChance chance, per read, that the clock was corrected by one to three seconds since the
   *   previous read (settable; 0 turns the occasional steps off, the sub-millisecond jitter stays).
   */
  constructor(
    public stepChance = 0.02,
    private readonly random: () => number = Math.random,
  ) {}

  /** A clock correction of `ms` (as a time sync would make): the reported boot time moves with it. */
  correctClock(ms: number): void {
    this.offsetMs += ms;
  }

  /** A boot: the clock and the uptime start over together. */
  reset(): void {
    this.offsetMs = 0;
  }

  /** One read, for a host that booted at `bootedAt`: ISO-8601 UTC with seven decimals. */
  read(bootedAt: Date): string {
    if (this.random() < this.stepChance) this.correctClock((1 + Math.floor(this.random() * 3)) * 1000);
    // Jitter in 100 ns ticks, below one millisecond.
    const ticks = Math.floor(this.random() * 10_000);
    const total = bootedAt.getTime() + this.offsetMs;
    const ms = Math.floor(total);
    const fraction = (ms % 1000) * 10_000 + ticks;
    const whole = new Date(ms - (ms % 1000)).toISOString().slice(0, 19);
    return `${whole}.${String(fraction).padStart(7, '0')}Z`;
  }
}
