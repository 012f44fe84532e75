import { lookup } from 'node:dns/promises';
import type { Ipv4Resolver } from './windows-instances.js';

/** Resolves with the operating system's resolver (getaddrinfo), IPv4 only. */
export const systemIpv4Resolver: Ipv4Resolver = async (name) => {
  const found = await lookup(name, { family: 4, all: true });
  return found.map((a) => a.address);
};
