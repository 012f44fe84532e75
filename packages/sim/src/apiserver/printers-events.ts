import { meta, str, type JsonObject } from './json.js';
import { age, col, num, obj, type Column } from './table-cells.js';

/** A core/v1 Event's printed fields; events.k8s.io/v1 names them differently (regarding, note, ...). */
interface EventView {
  readonly lastTimestamp: unknown;
  readonly firstTimestamp: unknown;
  readonly eventTime: unknown;
  readonly series: JsonObject | undefined;
  readonly count: number;
  readonly involved: JsonObject;
  readonly source: JsonObject;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly message: string;
}

function coreView(o: JsonObject): EventView {
  return {
    lastTimestamp: o['lastTimestamp'],
    firstTimestamp: o['firstTimestamp'],
    eventTime: o['eventTime'],
    series: o['series'] === undefined ? undefined : obj(o, 'series'),
    count: num(o['count']),
    involved: obj(o, 'involvedObject'),
    source: obj(o, 'source'),
    reportingController: str(o['reportingComponent']) ?? '',
    reportingInstance: str(o['reportingInstance']) ?? '',
    message: str(o['message']) ?? '',
  };
}

function eventsV1View(o: JsonObject): EventView {
  return {
    lastTimestamp: o['deprecatedLastTimestamp'],
    firstTimestamp: o['deprecatedFirstTimestamp'],
    eventTime: o['eventTime'],
    series: o['series'] === undefined ? undefined : obj(o, 'series'),
    count: num(o['deprecatedCount']),
    involved: obj(o, 'regarding'),
    source: obj(o, 'deprecatedSource'),
    reportingController: str(o['reportingController']) ?? '',
    reportingInstance: str(o['reportingInstance']) ?? '',
    message: str(o['note']) ?? '',
  };
}

function firstSeen(e: EventView): string {
  return e.firstTimestamp === undefined ? age(e.eventTime) : age(e.firstTimestamp);
}

/** printEvent: Last Seen falls back to First Seen; a series decides both Last Seen and Count. */
function lastSeen(e: EventView): string {
  if (e.series) return age(e.series['lastObservedTime']);
  return e.lastTimestamp === undefined ? firstSeen(e) : age(e.lastTimestamp);
}

function count(e: EventView): number {
  if (e.series) return num(e.series['count']);
  return e.count === 0 ? 1 : e.count;
}

/** `kind/name` in lower-case kind, or just the kind. */
function target(e: EventView): string {
  const kind = (str(e.involved['kind']) ?? '').toLowerCase();
  const name = str(e.involved['name']) ?? '';
  return name === '' ? kind : `${kind}/${name}`;
}

function source(e: EventView): string {
  const component = str(e.source['component']) || e.reportingController;
  const instance = str(e.source['host']) || e.reportingInstance;
  return instance === '' ? component : `${component}, ${instance}`;
}

function eventColumns(view: (o: JsonObject) => EventView): readonly Column[] {
  const c = (name: string, cell: (e: EventView, o: JsonObject) => string | number, priority = 0): Column =>
    col(name, (o) => cell(view(o), o), priority);
  return [
    c('Last Seen', lastSeen),
    c('Type', (_e, o) => str(o['type']) ?? ''),
    c('Reason', (_e, o) => str(o['reason']) ?? ''),
    c('Object', target),
    c('Subobject', (e) => str(e.involved['fieldPath']) ?? '', 1),
    c('Source', source, 1),
    c('Message', (e) => e.message.trim()),
    c('First Seen', firstSeen, 1),
    c('Count', count, 1),
    c('Name', (_e, o) => str(meta(o)['name']) ?? '', 1),
  ];
}

/** Both Event APIs print through the core Event printer upstream (they share one internal type). */
export const EVENT_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  '/Event': eventColumns(coreView),
  'events.k8s.io/Event': eventColumns(eventsV1View),
};
