import { request } from 'node:https';
import test from 'ava';
import { SimArm } from './sim-arm.js';

function call(
  arm: SimArm,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${arm.url}${path}`,
      { method: body === undefined ? 'GET' : 'POST', ca: arm.caPem, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function token(
  arm: SimArm,
  secret = arm.tenant.clientSecret,
  clientId = arm.tenant.clientId,
): Promise<{ status: number; json: unknown }> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: secret,
    scope: 'https://management.azure.com/.default',
  });
  return call(
    arm,
    `/${arm.tenant.tenantId}/oauth2/v2.0/token`,
    { 'content-type': 'application/x-www-form-urlencoded' },
    form.toString(),
  );
}

test('ARM refuses a request without api-version, and an unknown token, with ARM error bodies', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  const vms = `/subscriptions/${arm.state.subscriptionId}/resourceGroups/${arm.state.resourceGroup}/providers/Microsoft.Compute/virtualMachines`;
  const unauthenticated = await call(arm, `${vms}?api-version=2024-07-01`);
  t.is(unauthenticated.status, 401);
  t.like(unauthenticated.json, { error: { code: 'InvalidAuthenticationToken' } });
  const granted = await token(arm);
  t.is(granted.status, 200);
  const bearer = { authorization: `Bearer ${(granted.json as { access_token: string }).access_token}` };
  const noVersion = await call(arm, vms, bearer);
  t.is(noVersion.status, 400);
  t.like(noVersion.json, { error: { code: 'MissingApiVersionParameter' } });
  t.is((await call(arm, `${vms}?api-version=2024-07-01`, bearer)).status, 200);
});

test('the token endpoint refuses a wrong client secret as Entra ID does (invalid_client, AADSTS7000215)', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  const refused = await token(arm, 'wrong');
  t.is(refused.status, 401);
  t.like(refused.json, { error: 'invalid_client', error_codes: [7000215] });
  const config = await call(arm, `/${arm.tenant.tenantId}/v2.0/.well-known/openid-configuration`);
  t.like(config.json, { token_endpoint: `${arm.url}/${arm.tenant.tenantId}/oauth2/v2.0/token` });
});

test('a principal with listed permissions reads a VM but is refused an operation not listed: 403 AuthorizationFailed naming action and scope', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  arm.addInstance({ privateIp: '127.0.0.9', name: 'win-a' });
  const sp = arm.tenant.addPrincipal(['Microsoft.Compute/virtualMachines/read']);
  const granted = await token(arm, sp.clientSecret, sp.clientId);
  const bearer = { authorization: `Bearer ${(granted.json as { access_token: string }).access_token}` };
  const vm = `/subscriptions/${arm.state.subscriptionId}/resourceGroups/${arm.state.resourceGroup}/providers/Microsoft.Compute/virtualMachines/win-a`;
  t.is((await call(arm, `${vm}?api-version=2024-07-01`, bearer)).status, 200);
  const nic = await call(
    arm,
    `/subscriptions/${arm.state.subscriptionId}/resourceGroups/${arm.state.resourceGroup}/providers/Microsoft.Network/networkInterfaces/win-a-nic?api-version=2024-05-01`,
    bearer,
  );
  t.is(nic.status, 403);
  const message = (nic.json as { error: { code: string; message: string } }).error;
  t.is(message.code, 'AuthorizationFailed');
  t.is(
    message.message,
    `The client '${sp.clientId}' with object id '${sp.objectId}' does not have authorization to perform action 'Microsoft.Network/networkInterfaces/read' over scope '/subscriptions/${arm.state.subscriptionId}/resourceGroups/${arm.state.resourceGroup}/providers/Microsoft.Network/networkInterfaces/win-a-nic' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
  );
  t.deepEqual(arm.refused, [
    { principal: sp.clientId, permission: 'Microsoft.Network/networkInterfaces/read' },
  ]);
});
