import type { HostKeyStore } from '../host/host-key-store.js';
import type { JoinFlowDeps } from './flow-deps.js';
import { JoinFlow, type JoinRequest } from './join-flow.js';
import type { ActiveWork } from './upgradeable.js';

/** The join, counted as in-flight work while it runs (the OperatorCondition reports busy meanwhile). */
export class TrackedJoinFlow extends JoinFlow {
  constructor(
    deps: JoinFlowDeps,
    hostKeys: HostKeyStore,
    private readonly work: ActiveWork,
  ) {
    super(deps, hostKeys);
  }

  override async join(req: JoinRequest): Promise<void> {
    await this.work.during(req.instance.address, () => super.join(req));
  }
}
