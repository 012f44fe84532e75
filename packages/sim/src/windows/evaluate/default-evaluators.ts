import { EvaluatorRegistry } from './evaluator-registry.js';
import {
  defenderExclusionScript,
  gcpHostnameScript,
  invokeRestMethod,
  nodeIpScript,
  vsphereFqdnScript,
} from './host-scripts.js';
import { networkConfScript } from './network-conf.js';

/** The pre-scripts the operator sends (reference §1.4): NODE_IP, the platforms' hostname commands, files. */
export function defaultEvaluators(): EvaluatorRegistry {
  return new EvaluatorRegistry()
    .addExact(nodeIpScript)
    .addExact(vsphereFqdnScript)
    .addCmdlet(invokeRestMethod)
    .addScriptFile(gcpHostnameScript)
    .addScriptFile(defenderExclusionScript)
    .addScriptFile(networkConfScript);
}
