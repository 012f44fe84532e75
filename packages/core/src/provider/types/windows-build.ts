/** A Windows Server release a platform supports, identified by its OS build number. */
export interface WindowsBuild {
  /** Marketing name, e.g. `Windows Server 2022`. */
  readonly name: string;
  /** Major OS build: 17763 (2019), 20348 (2022), 26100 (2025). */
  readonly build: number;
  /** Lowest update build revision (UBR) accepted, when the platform needs a specific cumulative update. */
  readonly minRevision?: number;
  /** Why `minRevision` is required, e.g. `KB5012637`. */
  readonly note?: string;
}

export const WINDOWS_SERVER_2019: WindowsBuild = { name: 'Windows Server 2019', build: 17763 };
export const WINDOWS_SERVER_2022: WindowsBuild = { name: 'Windows Server 2022', build: 20348 };
export const WINDOWS_SERVER_2025: WindowsBuild = { name: 'Windows Server 2025', build: 26100 };
