import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fromZoneLocal,
  toZoneLocal,
  whenInWords,
  zoneInstant,
  zoneWall,
} from '../../../../src/web/admin/form-kit/school-time.ts';

describe('times as the school reads them', () => {
  test('a date-and-time box shows an API time on the school’s clock, and what is typed there goes back as UTC', () => {
    assert.equal(toZoneLocal('2026-11-26T13:05:00Z', 'Europe/Berlin'), '2026-11-26T14:05');
    assert.equal(toZoneLocal('2026-07-01T13:05:00Z', 'Europe/Berlin'), '2026-07-01T15:05');
    assert.equal(fromZoneLocal('2026-11-26T14:05', 'Europe/Berlin'), '2026-11-26T13:05:00.000Z');
    assert.equal(fromZoneLocal('2026-07-01T15:05', 'Europe/Berlin'), '2026-07-01T13:05:00.000Z');
    assert.equal(fromZoneLocal('2026-11-26T09:00', 'America/New_York'), '2026-11-26T14:00:00.000Z');
    assert.equal(toZoneLocal('not a time', 'Europe/Berlin'), '');
    assert.equal(toZoneLocal(undefined, 'Europe/Berlin'), '');
    assert.equal(fromZoneLocal('26.11.2026 14:05', 'Europe/Berlin'), undefined);
  });

  test('a date box and a time box, as the release schedule shows them', () => {
    assert.deepEqual(zoneWall('2026-11-26T08:00:00Z', 'Europe/Berlin'), { date: '2026-11-26', time: '09:00' });
    assert.equal(zoneInstant('2026-11-26', '09:00', 'Europe/Berlin'), '2026-11-26T08:00:00.000Z');
    assert.equal(zoneInstant('2026-11-26', '9 am', 'Europe/Berlin'), undefined);
    assert.equal(zoneInstant('tomorrow', '09:00', 'Europe/Berlin'), undefined);
  });

  test('a time in words is on the school’s clock and in its language', () => {
    assert.equal(whenInWords('2026-11-26T13:05:00Z', { zone: 'Europe/Berlin', locale: 'en-GB' }), '26 Nov 2026, 14:05');
    assert.match(
      whenInWords('2026-11-26T13:05:00Z', { zone: 'Europe/Berlin', locale: 'de' }),
      /26\. Nov\. 2026, 14:05/,
    );
    assert.equal(whenInWords('soon', { zone: 'Europe/Berlin', locale: 'en-GB' }), 'soon');
  });
});
