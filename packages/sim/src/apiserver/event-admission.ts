import { isObject, meta, str, type Json, type JsonObject } from './json.js';
import { qualifiedNameProblems } from './qualified-name.js';
import { errors, type StatusCause } from './status.js';
import type { TypeHooks } from './type-hooks.js';

/**
 * ValidateEventCreate / ValidateEventUpdate (kubernetes pkg/apis/core/validation/events.go, read at
 * release-1.36): the rules of the one internal Event type behind core/v1 and events.k8s.io/v1. Every event
 * passes the legacy checks; creates through events.k8s.io/v1 also pass the strict ones. Field paths are the
 * internal type's (involvedObject, message, ...), whichever API the event came through.
 */
interface InternalEvent {
  readonly namespace: string;
  readonly involvedNamespace: string;
  readonly eventTime: boolean;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly message: string;
  readonly type: string;
  readonly deprecated: readonly [string, Json | undefined][];
  readonly series: JsonObject | undefined;
}

const LIMIT = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

const s = (v: Json | undefined): string => str(v) ?? '';
const set = (v: Json | undefined): boolean => v !== undefined && v !== null && v !== '' && v !== 0;

/** Each API's JSON name for the internal fields validation reads. */
const CORE_NAMES = {
  regarding: 'involvedObject',
  source: 'source',
  controller: 'reportingComponent',
  note: 'message',
  firstTimestamp: 'firstTimestamp',
  lastTimestamp: 'lastTimestamp',
  count: 'count',
} as const;
const EVENTS_NAMES: Readonly<Record<keyof typeof CORE_NAMES, string>> = {
  regarding: 'regarding',
  source: 'deprecatedSource',
  controller: 'reportingController',
  note: 'note',
  firstTimestamp: 'deprecatedFirstTimestamp',
  lastTimestamp: 'deprecatedLastTimestamp',
  count: 'deprecatedCount',
};

function sourceSet(src: Json | undefined): string | undefined {
  return isObject(src) && (set(src['component']) || set(src['host'])) ? 'set' : undefined;
}

/** The fields validation reads, from either API's field names. */
function internal(o: JsonObject, eventsApi: boolean): InternalEvent {
  const n = eventsApi ? EVENTS_NAMES : CORE_NAMES;
  const ref = o[n.regarding];
  return {
    namespace: s(meta(o)['namespace']),
    involvedNamespace: isObject(ref) ? s(ref['namespace']) : '',
    eventTime: set(o['eventTime']),
    reportingController: s(o[n.controller]),
    reportingInstance: s(o['reportingInstance']),
    action: s(o['action']),
    reason: s(o['reason']),
    message: s(o[n.note]),
    type: s(o['type']),
    deprecated: [
      ['firstTimestamp', o[n.firstTimestamp]],
      ['lastTimestamp', o[n.lastTimestamp]],
      ['count', o[n.count]],
      ['source', sourceSet(o[n.source])],
    ],
    series: isObject(o['series']) ? o['series'] : undefined,
  };
}

const invalid = (field: string, value: string, detail: string): StatusCause => ({
  field,
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});
const required = (field: string): StatusCause => ({
  reason: 'FieldValueRequired',
  field,
  message: 'Required value',
});

function namespaceRule(e: InternalEvent): StatusCause[] {
  const allowed = e.eventTime
    ? e.involvedNamespace !== '' || ['default', 'kube-system'].includes(e.namespace)
    : e.involvedNamespace === ''
      ? ['', 'default'].includes(e.namespace)
      : e.namespace === e.involvedNamespace;
  return allowed
    ? []
    : [invalid('involvedObject.namespace', e.involvedNamespace, 'does not match event.namespace')];
}

/** What an event with eventTime (a "new" event) must carry. */
function reportingRules(e: InternalEvent): StatusCause[] {
  const out: StatusCause[] = [];
  if (e.reportingController === '') out.push(required('reportingController'));
  for (const p of qualifiedNameProblems(e.reportingController))
    out.push(invalid('reportingController', e.reportingController, p));
  for (const f of ['reportingInstance', 'action', 'reason'] as const) {
    if (e[f] === '') out.push(required(f));
    if (e[f].length > LIMIT[f]) out.push(invalid(f, '', `can have at most ${LIMIT[f]} characters`));
  }
  if (e.message.length > LIMIT.message)
    out.push(invalid('message', '', `can have at most ${LIMIT.message} characters`));
  return out;
}

function legacyRules(e: InternalEvent): StatusCause[] {
  return [...namespaceRule(e), ...(e.eventTime ? reportingRules(e) : [])];
}

/** The checks only a create through events.k8s.io/v1 gets. */
function strictRules(e: InternalEvent): StatusCause[] {
  const out: StatusCause[] = [];
  if (e.series !== undefined) {
    if (!(Number(e.series['count'] ?? 0) >= 2)) out.push(invalid('series.count', '', 'should be at least 2'));
    if (!set(e.series['lastObservedTime'])) out.push(required('series.lastObservedTime'));
  }
  if (!e.eventTime) out.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning')
    out.push(invalid('type', '', `has invalid value: ${e.type}`));
  for (const [field, v] of e.deprecated) if (set(v)) out.push(invalid(field, '', 'needs to be unset'));
  return out;
}

function refuse(o: JsonObject, causes: StatusCause[]): void {
  if (causes.length > 0) throw errors.invalid('Event', '', s(meta(o)['name']), causes);
}

function hooks(eventsApi: boolean): TypeHooks {
  return {
    create(next: JsonObject): void {
      const e = internal(next, eventsApi);
      refuse(next, [...legacyRules(e), ...(eventsApi ? strictRules(e) : [])]);
    },
    update(_old: JsonObject, next: JsonObject): void {
      refuse(next, legacyRules(internal(next, eventsApi)));
    },
  };
}

export const coreEventHooks: TypeHooks = hooks(false);
export const eventsApiEventHooks: TypeHooks = hooks(true);
