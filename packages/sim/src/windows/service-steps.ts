import type { PlanStep } from '@wmco/core';
import { removeServiceLikeModule } from './deconfigure.js';
import type { WindowsModel } from './windows-model.js';

function setService(
  m: WindowsModel,
  step: Extract<PlanStep, { kind: 'createService' | 'configureService' }>,
): void {
  const config = {
    commandLine: step.commandLine,
    startType: step.startType,
    dependencies: [...step.dependencies],
    description: step.description,
  };
  if (m.scm.get(step.name)) m.scm.configure(step.name, config);
  else m.scm.create({ name: step.name, ...config });
}

/** Set-WmcoServiceEnvironment: the value is replaced; an empty list removes it. */
function setServiceEnvironment(m: WindowsModel, name: string, environment: readonly string[]): void {
  const svc = m.scm.get(name);
  if (!svc) throw new Error(`service '${name}' does not exist`);
  if (environment.length === 0) delete svc.environment;
  else svc.environment = [...environment];
}

/**
 * Invoke-WmcoStep for the steps that create, configure, start or delete services (Set-WmcoServiceConfig,
 * Start-WmcoService(s), Set-WmcoServiceEnvironment, Remove-WmcoService); none needs a restart (false).
 * Undefined for any other step.
 */
export async function applyServiceStep(m: WindowsModel, step: PlanStep): Promise<boolean | undefined> {
  switch (step.kind) {
    case 'createService':
    case 'configureService':
      setService(m, step);
      return false;
    case 'startService':
    case 'startServices':
      // Start-WmcoService / Start-WmcoServices: one service, or one level started together.
      await m.scm.startTogether(step.kind === 'startService' ? [step.name] : step.names);
      return false;
    case 'setServiceEnvironment':
      setServiceEnvironment(m, step.name, step.environment);
      return false;
    case 'deleteService':
      await removeServiceLikeModule(m, step.name);
      return false;
    default:
      return undefined;
  }
}
