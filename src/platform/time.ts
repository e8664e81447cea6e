/** 'YYYY-MM-DD HH:MM:SS' in UTC, the specification's date-time form. */
export function formatDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
