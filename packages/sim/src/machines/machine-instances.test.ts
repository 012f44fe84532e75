import test from 'ava';
import { buildUserData, parseAuthorizedKey } from '@wmco/core';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { FREE_HOST_COSTS } from '../windows/host-costs.js';
import { eventually, machineAddress } from './machine-api.test-helper.js';
import { SimInstanceLauncher, type MachineInstanceRequest } from './machine-instances.js';

const key = parseAuthorizedKey(generateEd25519KeyPair().public);
const wrap = (s: string): string => `<powershell>${s}</powershell>\n<persist>true</persist>\n`;

function windowsMachine(name: string): MachineInstanceRequest {
  return {
    machineName: name,
    platform: 'VSphere',
    userData: buildUserData(key, { extraSteps: [], wrap }),
    windows: true,
  };
}

/** Listening TCP servers of this process (a VM's SSH server is one). */
const listening = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

test('a stop while a VM still boots stops that VM too: nothing is left listening and the launch rejects', async (t) => {
  const launcher = new SimInstanceLauncher({
    allocateAddress: machineAddress,
    host: { costs: FREE_HOST_COSTS },
  });
  const before = listening();
  const running = await launcher.launch(windowsMachine('m-0'));
  t.truthy(running.host, 'the user data opened sshd');
  // The second VM's SSH server is still starting when the stop comes.
  const booting = launcher.launch(windowsMachine('m-1'));
  await launcher.stop();
  await t.throwsAsync(booting, { message: /the hypervisor stopped while the VM booted/ });
  t.is(launcher.instances.size, 0);
  // A closed server's handle goes at the next turns of the event loop: wait for that state, bounded.
  await eventually('no VM left listening', () => (listening() === before ? true : undefined));
  await t.throwsAsync(launcher.launch(windowsMachine('m-2')), { message: /the hypervisor is stopping/ });
});
