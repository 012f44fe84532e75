import test from 'ava';
import { verifySigV4 } from './sigv4-verifier.js';

// AWS's published Signature Version 4 example (IAM ListUsers, 2015-08-30): the verifier must accept the
// documented signature and refuse any change to what was signed.
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const NOW = Date.UTC(2015, 7, 30, 12, 36, 0);
const request = {
  method: 'GET',
  url: '/?Action=ListUsers&Version=2010-05-08',
  headers: {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    host: 'iam.amazonaws.com',
    'x-amz-date': '20150830T123600Z',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, ' +
      'SignedHeaders=content-type;host;x-amz-date, ' +
      'Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
  },
  body: Buffer.alloc(0),
};
const secretFor = (id: string): string | undefined => (id === 'AKIDEXAMPLE' ? SECRET : undefined);

test('accepts the documented example signature', (t) => {
  t.is(verifySigV4(request, 'iam', secretFor, NOW), undefined);
});

test('refuses a changed query, header, secret or service, and an old timestamp', (t) => {
  const changedQuery = { ...request, url: '/?Action=ListUsers&Version=2010-05-09' };
  t.is(verifySigV4(changedQuery, 'iam', secretFor, NOW)?.code, 'AuthFailure');
  const changedHost = { ...request, headers: { ...request.headers, host: 'iam.example.com' } };
  t.is(verifySigV4(changedHost, 'iam', secretFor, NOW)?.code, 'AuthFailure');
  t.is(verifySigV4(request, 'iam', () => 'other-secret', NOW)?.code, 'AuthFailure');
  t.is(verifySigV4(request, 'ec2', secretFor, NOW)?.code, 'AuthFailure');
  t.is(verifySigV4(request, 'iam', secretFor, NOW + 3600_000)?.code, 'RequestExpired');
  const unsigned = { ...request, headers: { ...request.headers, authorization: '' } };
  t.is(verifySigV4(unsigned, 'iam', secretFor, NOW)?.code, 'MissingAuthenticationToken');
});
