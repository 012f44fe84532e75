import test from 'ava';
import { powershellSyntaxErrors } from '@wmco/core/testing';
import { fqdnFromIpconfig } from './vsphere-fqdn.js';
import { vsphereHostnameOverride } from './vsphere-hostname-override.js';

const ipconfig = (suffix: string): string =>
  [
    '',
    'Windows IP Configuration',
    '',
    '   Host Name . . . . . . . . . . . . : WINWORKER-A1',
    `   Primary Dns Suffix  . . . . . . . : ${suffix}`,
    '   Node Type . . . . . . . . . . . . : Hybrid',
    '   DNS Suffix Search List. . . . . . : example.com',
    '',
  ].join('\r\n');

test('the FQDN is host name and primary DNS suffix', (t) => {
  t.is(fqdnFromIpconfig(ipconfig('example.com')), 'WINWORKER-A1.example.com');
});

test('without a primary DNS suffix the host name alone', (t) => {
  t.is(fqdnFromIpconfig(ipconfig('')), 'WINWORKER-A1');
});

test('output without a host name is an error', (t) => {
  t.throws(() => fqdnFromIpconfig('Windows IP Configuration\r\n'), { message: /no 'Host Name' line/ });
});

test('the command is one PowerShell line that reads ipconfig /all with the same rule', (t) => {
  const { command, files } = vsphereHostnameOverride;
  t.deepEqual(files, []);
  t.false(/[\r\n]/.test(command));
  t.deepEqual(powershellSyntaxErrors(command), []);
  t.true(command.startsWith('$ipconfig = ipconfig /all; '));
  for (const part of [
    "-match 'Host Name'",
    "-match 'Primary Dns Suffix'",
    "-split ':', 2",
    "return $hostName + '.' + $dnsSuffix",
  ]) {
    t.true(command.includes(part), part);
  }
});
