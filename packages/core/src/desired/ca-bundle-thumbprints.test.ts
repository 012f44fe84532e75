import test from 'ava';
import { certificateThumbprints, trustedCaBundle } from './ca-bundle.js';

// Two self-signed certificates made with `openssl req -x509 -newkey ec ...`; their thumbprints are what
// `openssl x509 -noout -fingerprint -sha1` printed (Windows' Thumbprint is the same SHA-1 of the DER).
const A = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIUdhDprRz0uJNdbNfpnvHZ0gRsHUIwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIYnVuZGxlLWEwHhcNMjYxMTIzMjI1MzQwWhcNMzYxMTIwMjI1
MzQwWjATMREwDwYDVQQDDAhidW5kbGUtYTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABG21NJWjuaAIMkIW58Tn/4cVhYG6h0Vi/LAIw06+NDkzRU0D/s+FksaHo6oq
QTTt85HpXt6JNGqZ9KK7839bXhijUzBRMB0GA1UdDgQWBBTrDFL0NJEnpc7ngvHY
rRWngkn5/jAfBgNVHSMEGDAWgBTrDFL0NJEnpc7ngvHYrRWngkn5/jAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDTGf3NFH7zUKx1DhyNi+uruCOR
0evOr7gOMVhJh0EIdAIgbAua13NMDb03wUgjHzy4jr1lQ896tUqMk3ymuhm9dCI=
-----END CERTIFICATE-----`;
const B = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIUByRyLVPni+dhn1cUu0nHNjMvx0YwCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIYnVuZGxlLWIwHhcNMjYxMTIzMjI1MzQwWhcNMzYxMTIwMjI1
MzQwWjATMREwDwYDVQQDDAhidW5kbGUtYjBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABIe1sDDDti3pbalppREMYJskXUXRXxp0iNtKjgBeK/pgxkydr26w5EymqUuJ
PmqgobDvfSiimwzaYors2/NlUd6jUzBRMB0GA1UdDgQWBBQjR9Md6k6MnRRQvgJR
oRrMybHmATAfBgNVHSMEGDAWgBQjR9Md6k6MnRRQvgJRoRrMybHmATAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCICfkSWmvSiQDboBKYZ40NsUsXXWk
VGajNi/0eCM7PtfoAiEAzzYVJv/h/7O6mgu3EetdtQDE7pgeDK4ie+r9OH1nHMw=
-----END CERTIFICATE-----`;
const TA = '0DCB742E107F784AB18994F961B21B35436B1C46';
const TB = 'F8400ABBC2C2E9ECF9A2D8FFB2FFAE4F00251282';

test('thumbprints are the SHA-1 of the DER, upper-case, once each, in bundle order', (t) => {
  const bundle = trustedCaBundle({
    userBundles: [{ file: 'registry.example.com..5000', data: B }],
    bundles: [],
    proxyTrustedCa: `${A}\n${B}\n`,
  });
  t.deepEqual(certificateThumbprints(bundle), { thumbprints: [TB, TA], unusable: [] });
});

test('a block that is not a certificate is reported by position and left out', (t) => {
  const broken = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----';
  t.deepEqual(certificateThumbprints(`${A}\n${broken}\n${B}`), { thumbprints: [TA, TB], unusable: [2] });
  t.deepEqual(certificateThumbprints(''), { thumbprints: [], unusable: [] });
});
