import test from 'ava';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { CaBundleProblemReporter } from './ca-bundle-problem-reporter.js';

const BROKEN = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n';
const facts = (
  proxyTrustedCa: string,
): { caBundle: { userBundles: []; bundles: []; proxyTrustedCa: string } } => ({
  caBundle: { userBundles: [], bundles: [], proxyTrustedCa },
});

test('a block that is not a certificate is reported once on trusted-ca, again only when it changes', async (t) => {
  const events = new MemoryEventRecorder();
  const r = new CaBundleProblemReporter(events, 'ns');
  await r.report(facts(BROKEN));
  await r.report(facts(BROKEN));
  t.is(events.events.length, 1);
  t.like(events.events[0], {
    object: { kind: 'ConfigMap', name: 'trusted-ca', namespace: 'ns' },
    type: 'Warning',
    reason: 'InvalidTrustedCA',
  });
  t.regex(events.events[0]!.message, /block\(s\) 1 do not parse/);
  await r.report(facts(''));
  await r.report(facts(BROKEN));
  t.is(events.events.length, 2, 'fixed and broken again: reported again');
  await r.report({});
  t.is(events.events.length, 2);
});
