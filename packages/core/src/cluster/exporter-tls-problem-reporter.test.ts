import test from 'ava';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { ExporterTlsProblemReporter } from './exporter-tls-problem-reporter.js';

const TLS = { exporterTls: { cert: 'CERT', key: 'KEY' } };

test('a missing windows_exporter certificate is one Warning on the Service; its arrival one Normal', async (t) => {
  const events = new MemoryEventRecorder();
  const r = new ExporterTlsProblemReporter(events, 'ns');
  await r.report({});
  await r.report({});
  t.is(events.events.length, 1, 'once per change, not per join');
  t.like(events.events[0], {
    object: { kind: 'Service', name: 'windows-exporter', namespace: 'ns' },
    type: 'Warning',
    reason: 'MissingExporterCertificate',
  });
  t.regex(events.events[0]!.message, /windows-machine-config-operator-tls has no tls\.crt\/tls\.key/);
  await r.report(TLS);
  await r.report(TLS);
  t.is(events.events.length, 2);
  t.like(events.events[1], { type: 'Normal', reason: 'ExporterCertificateAvailable' });
});

test('a certificate present from the start is not an event', async (t) => {
  const events = new MemoryEventRecorder();
  const r = new ExporterTlsProblemReporter(events, 'ns');
  await r.report(TLS);
  t.is(events.events.length, 0);
  await r.report({});
  t.is(events.events.length, 1, 'it went away: reported');
});
