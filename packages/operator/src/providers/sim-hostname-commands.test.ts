// The simulated Windows host answers each platform's HostnameOverride command (observe's `evaluate`) the
// way the real script would; this keeps the simulator's copy of the commands in step with the providers.
import test from 'ava';
import { HostnameOverride, registerProvider, type WmcoProvider } from '@wmco/core/provider';
import { NODE_IP_SCRIPT } from '@wmco/core/internal';
import { newRootContainer } from '@wmco/core';
import { awsProvider } from '@wmco/provider-aws';
import { gcpNodeName, gcpProvider } from '@wmco/provider-gcp';
import { fqdnFromIpconfig, vsphereProvider } from '@wmco/provider-vsphere';
import { WindowsModel, defaultEvaluators } from '@wmco/sim';

function hostnameOverride(provider: WmcoProvider): HostnameOverride {
  const container = newRootContainer();
  registerProvider(container, provider);
  return container.resolve<HostnameOverride>(HostnameOverride);
}

/** Runs the provider's command on a model that holds the provider's files. */
function evaluate(model: WindowsModel, provider: WmcoProvider): unknown {
  const { command, files } = hostnameOverride(provider);
  for (const f of files) {
    model.files.mkdirp(f.path.replace(/\\[^\\]*$/, ''));
    model.files.write(f.path, Buffer.from(f.content));
  }
  const unsupported: string[] = [];
  const result = defaultEvaluators().evaluate(model, command ?? '', (s) => unsupported.push(s));
  return { result, unsupported };
}

test('AWS: the instance metadata local-hostname', (t) => {
  const model = new WindowsModel({ metadataHostname: 'ip-10-0-1-5.ec2.internal' });
  t.deepEqual(evaluate(model, awsProvider), {
    result: { ok: true, output: 'ip-10-0-1-5.ec2.internal' },
    unsupported: [],
  });
});

test('GCP: the metadata hostname cut by the same rule as gcpNodeName', (t) => {
  for (const hostname of [
    `win-a.c.p.internal`,
    `${'x'.repeat(50)}.${'y'.repeat(20)}.c.p.internal`,
    'z'.repeat(70),
  ]) {
    const model = new WindowsModel({ metadataHostname: hostname });
    t.deepEqual(evaluate(model, gcpProvider), {
      result: { ok: true, output: gcpNodeName(hostname) },
      unsupported: [],
    });
  }
});

test('vSphere: the FQDN from ipconfig /all, or the bare host name', (t) => {
  const ipconfig = (suffix: string): string =>
    `   Host Name . . . . . . . . . . . . : WIN-V1\r\n   Primary Dns Suffix  . . . . . . . : ${suffix}\r\n`;
  const withSuffix = new WindowsModel({ hostname: 'WIN-V1', dnsSuffix: 'example.com' });
  t.deepEqual(evaluate(withSuffix, vsphereProvider), {
    result: { ok: true, output: fqdnFromIpconfig(ipconfig('example.com')) },
    unsupported: [],
  });
  const bare = new WindowsModel({ hostname: 'WIN-V1' });
  t.deepEqual(evaluate(bare, vsphereProvider), {
    result: { ok: true, output: fqdnFromIpconfig(ipconfig('')) },
    unsupported: [],
  });
});

test('NODE_IP: the address of the default route interface', (t) => {
  const model = new WindowsModel({ ipv4: '192.168.7.9' });
  t.deepEqual(
    defaultEvaluators().evaluate(model, NODE_IP_SCRIPT, () => undefined),
    {
      ok: true,
      output: '192.168.7.9',
    },
  );
});
