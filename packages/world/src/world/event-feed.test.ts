import test from 'ava';
import { EventFeed, type FeedEvent } from './event-feed.js';

// 'other' comes first: 127.0.0.1 is a prefix of 127.0.0.11 and must not take its events.
const rows = [
  { key: '127.0.0.1', address: '127.0.0.1', label: 'other' },
  { key: '127.0.0.11', address: '127.0.0.11', label: 'by-ip' },
  { key: 'win.example', address: '127.0.0.11', label: 'by-name' },
];

test('each Warning event once, on the entry it quotes first, else on the host it names', async (t) => {
  const events: FeedEvent[] = [
    { type: 'Warning', reason: 'Dup', message: 'entry "win.example": same host as entry "127.0.0.11"' },
    { type: 'Warning', reason: 'Fail', message: 'instance 127.0.0.11: host 127.0.0.11 printed too much' },
    { type: 'Warning', reason: 'Other', message: 'instance 127.0.0.1: refused' },
    { type: 'Normal', reason: 'Joined', message: 'instance 127.0.0.1 joined' },
    { type: 'Warning', reason: 'Nobody', message: 'instance 10.0.0.5: refused' },
  ];
  const feed = new EventFeed(() => Promise.resolve(events), rows);
  t.deepEqual(await feed.next(), [
    ['by-name', 'event Dup: entry "win.example": same host as entry "127.0.0.11"'],
    ['by-ip', 'event Fail: instance 127.0.0.11: host 127.0.0.11 printed too much'],
    ['other', 'event Other: instance 127.0.0.1: refused'],
  ]);
  t.deepEqual(await feed.next(), [], 'nothing twice');
  events.push({ type: 'Warning', reason: 'Fail', message: 'instance 127.0.0.1: again' });
  t.deepEqual(await feed.next(), [['other', 'event Fail: instance 127.0.0.1: again']]);
});

test('a failing event list is no event (the world may be stopping)', async (t) => {
  const feed = new EventFeed(() => Promise.reject(new Error('gone')), rows);
  t.deepEqual(await feed.next(), []);
});
