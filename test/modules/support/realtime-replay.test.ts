// Where a sync replay starts and when it reports a gap (docs/decisions.md, "Realtime order").
import { describe, expect, it } from 'vitest';
import { replayFrom } from '../../../src/modules/support/realtime/support-realtime.service';

describe('replayFrom', () => {
  it.each([
    // [case, afterSeq, lastSeq, oldestKeptSeq, after, gap]
    ['a room that never had an event, from the start', 0, 0, undefined, 0, false],
    ['everything kept, from the start', 0, 5, 1, 0, false],
    ['everything kept, from the middle', 3, 5, 1, 3, false],
    ['up to date', 5, 5, 1, 5, false],
    ['up to date while older events are purged', 5, 5, 4, 5, false],
    ['right after the last purged event', 3, 5, 4, 3, false],
    ['the next event was purged', 2, 5, 4, 2, true],
    ['from the start, the first events purged', 0, 5, 4, 0, true],
    ['every event purged, the client behind', 3, 5, undefined, 3, true],
    ['every event purged, the client up to date', 5, 5, undefined, 5, false],
    ['a seq the room never reached', 9, 5, 1, 0, true],
    ['a seq ahead of an empty room', 1, 0, undefined, 0, true],
    ['an event id the room does not keep', undefined, 5, 1, 0, true],
    ['an event id on a room without events', undefined, 0, undefined, 0, true],
  ] as const)('%s', (_case, afterSeq, lastSeq, oldestKeptSeq, after, gap) => {
    expect(replayFrom({ afterSeq, lastSeq, oldestKeptSeq })).toEqual({ after, gap });
  });
});
