import test from 'ava';
import { formatCidr, nthSubnet, parseCidr } from './ipv4.js';

test('subnets of a hybrid cluster network', (t) => {
  const net = parseCidr('10.132.0.0/14');
  t.is(formatCidr(nthSubnet(net, 23, 0)!), '10.132.0.0/23');
  t.is(formatCidr(nthSubnet(net, 23, 1)!), '10.132.2.0/23');
  t.is(formatCidr(nthSubnet(net, 23, 511)!), '10.135.254.0/23');
  t.is(nthSubnet(net, 23, 512), undefined);
  t.is(formatCidr(parseCidr('10.1.2.3/16')), '10.1.0.0/16');
  t.throws(() => parseCidr('10.1.2/16'), { message: /invalid IPv4 CIDR/ });
});
