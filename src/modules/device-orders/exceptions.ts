/**
 * Device order exceptions: what can go wrong with a parcel in a locker, for an operator to resolve. Types,
 * severities and resolution actions are closed lists, documented in docs/device-order-exceptions.md.
 */
import { z } from 'zod';
import { time } from './views.ts';

export const EXCEPTION_TYPES = [
  'door_left_open',
  'deposit_unverified',
  'item_missing',
  'item_damaged',
  'wrong_compartment',
  'overdue',
  'pickup_code_locked',
  'other',
] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];
/** Only the code check opens pickup_code_locked; staff may open every other type. */
export const STAFF_EXCEPTION_TYPES = EXCEPTION_TYPES.filter((t) => t !== 'pickup_code_locked');

export const EXCEPTION_SEVERITIES = ['low', 'medium', 'high'] as const;
export type ExceptionSeverity = (typeof EXCEPTION_SEVERITIES)[number];

/** The severity a type gets when nobody says otherwise (always, for the ones the process opens itself). */
export const DEFAULT_SEVERITY: Record<ExceptionType, ExceptionSeverity> = {
  door_left_open: 'high',
  deposit_unverified: 'medium',
  item_missing: 'high',
  item_damaged: 'medium',
  wrong_compartment: 'medium',
  overdue: 'medium',
  pickup_code_locked: 'high',
  other: 'low',
};

export const CLOSED_STATUSES = ['resolved', 'dismissed'] as const;
export type ClosedStatus = (typeof CLOSED_STATUSES)[number];
export const EXCEPTION_STATUSES = ['open', ...CLOSED_STATUSES] as const;
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];

/** What staff did about an exception. */
export const STAFF_RESOLUTION_ACTIONS = [
  'door_closed',
  'parcel_found',
  'parcel_removed',
  'parcel_replaced',
  'recipient_contacted',
  'code_reissued',
  'returned_to_sender',
  'no_action_needed',
  'other',
] as const;
/** Staff's actions and the ones the process records when it closes an exception itself: collected, removed, door_closed. */
export const RESOLUTION_ACTIONS = [...STAFF_RESOLUTION_ACTIONS, 'collected', 'removed'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

/** data.exception of the exception events, exactly. */
export const ExceptionView = z
  .object({
    id: z.number().int().describe('Exception id'),
    type: z.enum(EXCEPTION_TYPES).describe('What went wrong'),
    severity: z.enum(EXCEPTION_SEVERITIES).describe('How urgent it is'),
    status: z.enum(EXCEPTION_STATUSES).describe('open, resolved or dismissed'),
    resolution_action: z.enum(RESOLUTION_ACTIONS).nullable().describe('What was done about it; null while open'),
  })
  .strict();
export type ExceptionView = z.infer<typeof ExceptionView>;

/** An exception as the API lists it: the event's fields and when it opened and closed. */
export const ExceptionRecord = ExceptionView.extend({
  opened_at: time('When it was opened'),
  closed_at: time('When it was resolved or dismissed').nullable(),
}).strict();
export type ExceptionRecord = z.infer<typeof ExceptionRecord>;
