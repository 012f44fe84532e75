import type { SimCloudInstance } from '../cloud-instance.js';
import { filterParams, listParam, tagParams, wildcard, type Ec2Filter } from './ec2-params.js';
import type { Ec2State, SimSecurityGroup } from './ec2-state.js';
import { Ec2Error, type XmlNode } from './ec2-xml.js';

type Action = (state: Ec2State, params: URLSearchParams) => Record<string, XmlNode>;

const tagSet = (tags: Readonly<Record<string, string>>): XmlNode[] =>
  Object.entries(tags).map(([key, value]) => ({ key, value }));

const FILTERS: Readonly<Record<string, (state: Ec2State, i: SimCloudInstance) => readonly string[]>> = {
  'private-ip-address': (_, i) => [i.privateIp],
  'network-interface.addresses.private-ip-address': (_, i) => [i.privateIp],
  'instance-id': (_, i) => [i.id],
  'vpc-id': (_, i) => [i.network],
  'instance-state-name': () => ['running'],
  'availability-zone': (_, i) => [i.zone],
  'private-dns-name': (state, i) => [state.dnsNames.get(i.id) ?? ''],
  'tag-key': (_, i) => [...i.tags.keys()],
};

function filterValue(state: Ec2State, i: SimCloudInstance, name: string): readonly string[] {
  if (name.startsWith('tag:')) {
    const v = i.tags.get(name.slice(4));
    return v === undefined ? [] : [v];
  }
  const get = FILTERS[name];
  if (!get) throw new Ec2Error(400, 'InvalidParameterValue', `The filter '${name}' is invalid`);
  return get(state, i);
}

function matches(state: Ec2State, i: SimCloudInstance, filters: readonly Ec2Filter[]): boolean {
  return filters.every((f) => {
    const have = filterValue(state, i, f.name);
    return f.values.some((want) => have.some((v) => wildcard(want, v)));
  });
}

function instanceXml(state: Ec2State, i: SimCloudInstance): XmlNode {
  return {
    instanceId: i.id,
    imageId: 'ami-0windows2022',
    instanceState: { code: 16, name: 'running' },
    privateDnsName: state.dnsNames.get(i.id) ?? '',
    instanceType: 'm5a.large',
    placement: { availabilityZone: i.zone, tenancy: 'default' },
    platform: 'windows',
    privateIpAddress: i.privateIp,
    vpcId: i.network,
    groupSet: i.groups.map((g) => ({ groupId: g, groupName: state.groups.get(g)?.groupName ?? g })),
    tagSet: tagSet(i.tagRecord()),
  };
}

function requireInstances(state: Ec2State, ids: readonly string[]): SimCloudInstance[] {
  return ids.map((id) => {
    if (!/^i-[0-9a-f]{8,17}$/.test(id))
      throw new Ec2Error(400, 'InvalidInstanceID.Malformed', `Invalid id: "${id}"`);
    const i = state.instances.get(id);
    if (!i) throw new Ec2Error(400, 'InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    return i;
  });
}

const describeInstances: Action = (state, params) => {
  const ids = listParam(params, 'InstanceId');
  const filters = filterParams(params);
  const pool = ids.length > 0 ? requireInstances(state, ids) : [...state.instances.values()];
  const found = pool.filter((i) => matches(state, i, filters));
  return {
    reservationSet: found.map((i) => ({
      reservationId: `r-${i.id.slice(2)}`,
      ownerId: state.accountId,
      groupSet: [],
      instancesSet: [instanceXml(state, i)],
    })),
  };
};

const createTags: Action = (state, params) => {
  const targets = requireInstances(state, listParam(params, 'ResourceId'));
  const tags = tagParams(params);
  for (const i of targets) i.setTags(Object.fromEntries(tags.map((t) => [t.key, t.value ?? ''])));
  return { return: true };
};

const deleteTags: Action = (state, params) => {
  const targets = requireInstances(state, listParam(params, 'ResourceId'));
  const tags = tagParams(params);
  for (const i of targets) {
    // DeleteTags removes a key only when no value was given or the given value matches.
    const gone = tags.filter((t) => t.value === undefined || i.tags.get(t.key) === t.value);
    i.setTags(Object.fromEntries(gone.map((t) => [t.key, undefined])));
  }
  return { return: true };
};

function groupXml(g: SimSecurityGroup, accountId: string): XmlNode {
  return {
    ownerId: accountId,
    groupId: g.groupId,
    groupName: g.groupName,
    groupDescription: g.groupName,
    ipPermissions: g.ingress.map((r) => ({
      ipProtocol: r.protocol,
      ...(r.protocol === '-1' ? {} : { fromPort: r.fromPort, toPort: r.toPort }),
      groups: (r.sourceGroups ?? []).map((groupId) => ({ userId: accountId, groupId })),
      ipRanges: (r.cidrs ?? []).map((cidrIp) => ({ cidrIp })),
    })),
    tagSet: tagSet(g.tags),
  };
}

const describeSecurityGroups: Action = (state, params) => {
  const ids = listParam(params, 'GroupId');
  const groups = ids.map((id) => {
    const g = state.groups.get(id);
    if (!g) throw new Ec2Error(400, 'InvalidGroup.NotFound', `The security group '${id}' does not exist`);
    return g;
  });
  const all = ids.length > 0 ? groups : [...state.groups.values()];
  return { securityGroupInfo: all.map((g) => groupXml(g, state.accountId)) };
};

/** The EC2 actions this project uses, by `Action` name. */
export const EC2_ACTIONS: ReadonlyMap<string, Action> = new Map([
  ['DescribeInstances', describeInstances],
  ['CreateTags', createTags],
  ['DeleteTags', deleteTags],
  ['DescribeSecurityGroups', describeSecurityGroups],
]);
