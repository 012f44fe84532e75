import type { ExecutionContext } from 'ava';
import { z } from 'zod';
import { CloudNodeManager } from '../../provider/capabilities/cloud-node-manager.js';
import { serviceSpecProblems } from '../../provider/types/windows-service-spec-schema.js';
import type { WindowsServiceSpec } from '../../provider/types/windows-service-spec.js';
import { assertPayload, assertPowerShell, assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');
const schema = z.object({ service: fn, payload: fn });

/** Services core itself installs (reference §1.4, §3.5); a provider's service must not take their names. */
const CORE_SERVICES = [
  'containerd',
  'kubelet',
  'windows_exporter',
  'hybrid-overlay-node',
  'kube-proxy',
  'csi-proxy',
  'windows-instance-config-daemon',
];

function bothModes(cnm: CloudNodeManager): readonly WindowsServiceSpec[] {
  return [cnm.service({ debug: false }), cnm.service({ debug: true })];
}

function runsAPayloadBinary(t: ExecutionContext, cnm: CloudNodeManager): void {
  const delivered = cnm.payload().map((f) => `${f.directory}\\${f.name}`.toLowerCase());
  for (const spec of bothModes(cnm)) {
    const binary = (spec.command.split(' ')[0] ?? '').toLowerCase();
    t.true(
      delivered.includes(binary),
      `service ${spec.name} runs '${binary}', which its payload does not deliver`,
    );
  }
}

export const cloudNodeManagerContract = capabilityContract<CloudNodeManager>({
  capability: CloudNodeManager,
  name: 'CloudNodeManager',
  snapshot: (cnm) => plain({ services: bothModes(cnm), payload: cnm.payload() }),
  checks: [
    { name: 'shape', run: (t, cnm) => assertShape(t, schema, cnm) },
    {
      name: 'service specs are valid',
      run: (t, cnm) => {
        for (const spec of bothModes(cnm)) {
          const problems = serviceSpecProblems(spec);
          t.deepEqual(problems, [], `service spec problems:\n${problems.join('\n')}`);
          t.false(CORE_SERVICES.includes(spec.name), `service name ${spec.name} belongs to core`);
        }
      },
    },
    {
      name: 'service pre-scripts parse as PowerShell',
      run: (t, cnm) => {
        for (const spec of bothModes(cnm)) {
          for (const pre of spec.preScripts ?? [])
            assertPowerShell(t, `a pre-script of ${spec.name}`, pre.script);
        }
        t.pass();
      },
    },
    {
      name: 'payload destinations are absolute Windows paths',
      run: (t, cnm) => assertPayload(t, cnm.payload()),
    },
    { name: 'the service runs a binary its payload delivers', run: runsAPayloadBinary },
  ],
});
