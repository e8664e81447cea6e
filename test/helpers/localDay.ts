/**
 * A day that is under way whatever the hour the suite runs at. Re-optimising plans the rest of today from now up to
 * the business's midnight (docs/routes.md), so a test business on UTC run near midnight UTC has no day left to plan.
 * A test that works on today gives its business a timezone in which it is mid-morning now, and reads today there.
 */
import type { Em } from '../../src/platform/db/orm.ts';

/**
 * A fixed-offset timezone in which it is 10:xx now, and today's date in it. Etc/GMT zones keep no daylight saving;
 * their signs are POSIX's (Etc/GMT-10 is ten hours ahead of UTC) and they run from Etc/GMT-14 to Etc/GMT+12.
 */
export function midMorning(now = new Date()): { timezone: string; today: string } {
  let ahead = 10 - now.getUTCHours();
  if (ahead < -12) ahead += 24;
  const timezone = ahead === 0 ? 'Etc/GMT' : `Etc/GMT${ahead > 0 ? '-' : '+'}${Math.abs(ahead)}`;
  return { timezone, today: new Date(now.getTime() + ahead * 3_600_000).toISOString().slice(0, 10) };
}

/** Moves the business to a timezone in which it is mid-morning now; answers that zone and its today. */
export async function midMorningBusiness(em: Em, businessId: number): Promise<{ timezone: string; today: string }> {
  const day = midMorning();
  await em.execute('update business set timezone = ? where id = ?', [day.timezone, businessId]);
  return day;
}
