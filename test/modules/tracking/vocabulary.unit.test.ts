import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { INCIDENT_REASONS, PHASES, STATUS_BY_ID, STATUS_CODES } from '../../../src/modules/tracking/vocabulary.ts';
import { parseOccurredAt } from '../../../src/modules/tracking/rules.ts';
import { isoInOffset } from '../../../src/modules/tracking/time.ts';

describe('the OTEP vocabulary', () => {
  test('docs/otep.md publishes every status code and reason', () => {
    const doc = readFileSync(new URL('../../../docs/otep.md', import.meta.url), 'utf8');
    for (const { id } of [...STATUS_CODES, ...INCIDENT_REASONS]) assert.ok(doc.includes(`\`${id}\``), id);
  });

  test('codes are unique, well formed, and a profile code refines a universal one', () => {
    assert.equal(STATUS_BY_ID.size, STATUS_CODES.length);
    for (const s of STATUS_CODES) {
      assert.match(s.id, /^otep:(core|parcel):[a-z_]+$/);
      assert.ok((PHASES as readonly string[]).includes(s.phase));
      if (s.profile === 'core') assert.equal(s.refines, null, s.id);
      else assert.equal(STATUS_BY_ID.get(s.refines!)?.profile, 'core', s.id);
    }
  });

  test('each universal code has its own EPCIS bizStep + disposition, so a foreign document maps back to it', () => {
    const pairs = STATUS_CODES.filter((s) => s.profile === 'core').map(
      (s) => `${s.projection.epcis.bizStep} ${s.projection.epcis.disposition}`,
    );
    assert.equal(new Set(pairs).size, pairs.length);
  });

  test('times keep the offset they were written in', () => {
    for (const text of ['2026-11-20T15:42:00+01:00', '2026-11-20T15:42:00.250-05:30', '2026-11-20T15:42:00Z']) {
      const parsed = parseOccurredAt(text);
      assert.ok(!('problem' in parsed));
      assert.equal(isoInOffset(parsed.at, parsed.offsetMin), text);
    }
    assert.deepEqual(parseOccurredAt('2026-02-30T10:00:00Z'), { problem: 'bad_time' });
    assert.deepEqual(parseOccurredAt('2026-11-20T10:00:00+15:00'), { problem: 'time_zone_invalid' });
    assert.deepEqual(parseOccurredAt('2026-11-20 10:00'), { problem: 'bad_time' });
  });
});
