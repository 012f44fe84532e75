import { Ec2Error } from './ec2-xml.js';

/** EC2 query protocol lists: `Name.1`, `Name.2`, ... (botocore's ec2 serializer flattens every list). */
export function listParam(params: URLSearchParams, name: string): string[] {
  const out: string[] = [];
  for (let i = 1; params.has(`${name}.${i}`); i += 1) out.push(params.get(`${name}.${i}`) ?? '');
  return out;
}

export interface Ec2Filter {
  readonly name: string;
  readonly values: readonly string[];
}

export function filterParams(params: URLSearchParams): Ec2Filter[] {
  const out: Ec2Filter[] = [];
  for (let i = 1; params.has(`Filter.${i}.Name`); i += 1)
    out.push({ name: params.get(`Filter.${i}.Name`) ?? '', values: listParam(params, `Filter.${i}.Value`) });
  return out;
}

export interface Ec2Tag {
  readonly key: string;
  readonly value: string | undefined;
}

export function tagParams(params: URLSearchParams): Ec2Tag[] {
  const out: Ec2Tag[] = [];
  for (let i = 1; params.has(`Tag.${i}.Key`); i += 1) {
    const key = params.get(`Tag.${i}.Key`) ?? '';
    const value = params.get(`Tag.${i}.Value`) ?? undefined;
    if (key.length === 0 || key.length > 128)
      throw new Ec2Error(400, 'InvalidParameterValue', `Tag key must be 1 to 128 characters: '${key}'`);
    if (key.toLowerCase().startsWith('aws:'))
      throw new Ec2Error(
        400,
        'InvalidParameterValue',
        "Tag keys starting with 'aws:' are reserved for internal use",
      );
    if (value !== undefined && value.length > 256)
      throw new Ec2Error(400, 'InvalidParameterValue', `Tag value for '${key}' exceeds 256 characters`);
    out.push({ key, value });
  }
  return out;
}

/** Simple `*`/`?` wildcard match, as EC2 filters allow. */
export function wildcard(pattern: string, value: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(value);
}
