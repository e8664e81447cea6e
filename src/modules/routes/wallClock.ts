/**
 * Wall-clock times in a timezone (docs/routes.md, Building routes): a driver's shift and breaks are times of day in
 * the business's timezone, so on the day a clock changes (a 23- or 25-hour day) "08:00" is not 8 hours after
 * midnight. Pure: Intl's timezone data, no clock.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at the instant `utcMs`, in milliseconds. */
function offsetMs(utcMs: number, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const part = (parts: Intl.DateTimeFormatPart[], type: string) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const parts = f.formatToParts(new Date(Math.floor(utcMs / 1000) * 1000));
  const wall = Date.UTC(
    part(parts, 'year'),
    part(parts, 'month') - 1,
    part(parts, 'day'),
    part(parts, 'hour'),
    part(parts, 'minute'),
    part(parts, 'second'),
  );
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant the zone's clocks show `hhmm` ('HH:MM') on `date` ('YYYY-MM-DD') plus `days`. A time the clocks skip
 * (02:30 when they jump from 02:00 to 03:00) is read with the offset from before the jump: an hour later.
 */
export function wallClockAt(date: string, hhmm: string, timeZone: string, days = 0): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const local = Date.UTC(y, mo - 1, d + days, h, mi);
  const guess = local - offsetMs(local, timeZone);
  return new Date(local - offsetMs(guess, timeZone));
}
