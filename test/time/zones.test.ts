import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instantOfWall, wallClock } from '../../src/time/zones.ts';

const at = (iso: string) => Date.parse(iso);

describe('a zone’s wall clock', () => {
  test('reads an instant as the zone’s clock shows it, summer and winter', () => {
    assert.equal(
      new Date(wallClock(at('2026-07-01T10:00:00Z'), 'Europe/Berlin')).toISOString(),
      '2026-07-01T12:00:00.000Z',
    );
    assert.equal(
      new Date(wallClock(at('2026-11-26T10:00:00Z'), 'Europe/Berlin')).toISOString(),
      '2026-11-26T11:00:00.000Z',
    );
    assert.equal(
      new Date(wallClock(at('2026-11-26T10:00:00Z'), 'America/New_York')).toISOString(),
      '2026-11-26T05:00:00.000Z',
    );
    assert.equal(wallClock(at('2026-11-26T10:00:00Z'), 'UTC'), at('2026-11-26T10:00:00Z'));
  });

  test('finds the instant a wall time means, on both sides of a daylight-saving change', () => {
    // Europe/Berlin moves from +01:00 to +02:00 at 02:00 local on 29 March 2026 and back at 03:00 on 25 October.
    assert.equal(
      new Date(instantOfWall(at('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toISOString(),
      '2026-03-29T00:30:00.000Z',
    );
    assert.equal(
      new Date(instantOfWall(at('2026-03-29T03:30:00Z'), 'Europe/Berlin')).toISOString(),
      '2026-03-29T01:30:00.000Z',
    );
    assert.equal(
      new Date(instantOfWall(at('2026-10-25T04:00:00Z'), 'Europe/Berlin')).toISOString(),
      '2026-10-25T03:00:00.000Z',
    );
    assert.equal(
      new Date(instantOfWall(at('2026-11-26T09:00:00Z'), 'Asia/Kolkata')).toISOString(),
      '2026-11-26T03:30:00.000Z',
    );
  });

  test('a wall time read back from its instant is the same wall time', () => {
    for (const zone of ['Europe/Berlin', 'America/Los_Angeles', 'Australia/Adelaide', 'Pacific/Chatham']) {
      for (const wall of ['2026-01-15T08:15:00Z', '2026-06-15T23:45:00Z', '2026-11-26T14:05:00Z']) {
        assert.equal(wallClock(instantOfWall(at(wall), zone), zone), at(wall), `${zone} ${wall}`);
      }
    }
  });
});
