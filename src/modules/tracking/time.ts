/** An instant written in a given offset (minutes east of UTC), as ISO 8601: `Z` for 0, else `+hh:mm`. */
export function isoInOffset(at: Date, offsetMin: number): string {
  const local = new Date(at.getTime() + offsetMin * 60_000).toISOString();
  const body = local.endsWith('.000Z') ? local.slice(0, -5) : local.slice(0, -1);
  if (offsetMin === 0) return `${body}Z`;
  const abs = Math.abs(offsetMin);
  const zone = `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${body}${zone}`;
}
