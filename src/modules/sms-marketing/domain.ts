/**
 * SMS Marketing's pure rules (docs/opt-in-families.md, "SMS Marketing"): the opt-out instruction every message
 * carries, quiet hours in the business's local time, and the pace of sending. Used by the workflow, so
 * deterministic: no clock but the one given.
 */
import type { QuietHours } from './contract.ts';

/** Appended to every campaign message: a STOP reply opts the number out for good. */
export const OPT_OUT_INSTRUCTION = 'Reply STOP to opt out.';
/** Four concatenated GSM-7 segments (4 x 153): the longest message a campaign sends, instruction included. */
export const MAX_MESSAGE_LENGTH = 612;
/** The campaign's own text: what is left of the message after a blank line and the instruction. */
export const MAX_TEXT_LENGTH = MAX_MESSAGE_LENGTH - OPT_OUT_INSTRUCTION.length - 2;

export const messageOf = (text: string): string => `${text}\n\n${OPT_OUT_INSTRUCTION}`;

/** 21:00 to 08:00 unless the campaign says otherwise. */
export const DEFAULT_QUIET_HOURS: QuietHours = { start: 21 * 60, end: 8 * 60 };
/** A campaign may move its quiet hours, but keeps at least this much of the night quiet. */
export const MIN_QUIET_MINUTES = 8 * 60;

/** The length of the quiet period in minutes (it may run over midnight). */
export const quietLength = (q: QuietHours): number => (q.end - q.start + 1440) % 1440;

export const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
export const minutesOf = (text: string): number => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

/** Minutes after local midnight at `nowMs` in the time zone. */
function localMinutes(nowMs: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(nowMs));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/**
 * When (epoch ms, on a minute) the quiet period the time `nowMs` falls in ends, or null when it falls in none. Counted
 * in local minutes: on the night a clock changes the end may be an hour off, and the campaign then waits again, or
 * sends from the real end on.
 */
export function quietUntil(nowMs: number, timezone: string, q: QuietHours): number | null {
  const m = localMinutes(nowMs, timezone);
  const quiet = q.start < q.end ? m >= q.start && m < q.end : m >= q.start || m < q.end;
  if (!quiet) return null;
  const minuteStart = Math.floor(nowMs / 60_000) * 60_000;
  return minuteStart + ((q.end - m + 1440) % 1440) * 60_000;
}

/** Messages a batch sends: about a second's worth, at least one and at most 20. */
export const batchSize = (perMinute: number): number => Math.min(20, Math.max(1, Math.ceil(perMinute / 60)));

/** How long a batch of `n` messages takes at the campaign's rate: the wait after it. */
export const batchPauseMs = (n: number, perMinute: number): number => Math.ceil((n * 60_000) / perMinute);
