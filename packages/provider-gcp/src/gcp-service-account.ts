import { CloudNotConfiguredError } from '@wmco/core/provider';
import { z } from 'zod';

const schema = z.object({
  type: z.literal('service_account'),
  project_id: z.string().min(1),
  private_key_id: z.string().optional(),
  private_key: z.string().includes('PRIVATE KEY'),
  client_email: z.string().includes('@'),
  token_uri: z.url({ protocol: /^https$/ }),
});
export type ServiceAccount = z.infer<typeof schema>;

/** Parses a service-account key; the error names the Secret and the bad field, never the key itself. */
export function parseServiceAccount(raw: string, where: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new CloudNotConfiguredError('gcp', `${where}: service_account.json is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new CloudNotConfiguredError(
      'gcp',
      `${where}: service_account.json is not a service-account key (${fields})`,
    );
  }
  return parsed.data;
}
