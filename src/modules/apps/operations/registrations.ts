/**
 * App registration (docs/apps.md, Registration): a person registers in a standalone app for its client business,
 * with an SMS code where the app verifies phones (the workflow `app-registration-<id>`) and the business's approval
 * where the app asks for it.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { emailParam, offsetOf, pageOf, pageOutput, pageParams } from '../../../platform/catalog/schemas.ts';
import { defineOperation, type BusinessContext, type OperationContext } from '../../../platform/catalog/types.ts';
import { checkCode } from '../../../platform/codeChecks.ts';
import type { Em } from '../../../platform/db/orm.ts';
import { errors } from '../../../platform/errors.ts';
import { translate } from '../../../platform/i18n/messages.ts';
import { hashPassword } from '../../../platform/secrets.ts';
import { refusedAs, PROCESS_GONE } from '../../../platform/temporal/refusals.ts';
import { NO_DUPLICATES } from '../../../platform/temporal/startOptions.ts';
import { formatDateTime } from '../../../platform/time.ts';
import { toE164 } from '../../sms/index.ts';
import {
  closeSignal,
  REGISTRATION_CLOSED,
  REGISTRATION_QUEUE,
  REGISTRATION_TTL_MS,
  REGISTRATION_WORKFLOW,
  registrationWorkflowId,
  RESEND_TOO_SOON,
  resendUpdate,
  type RegistrationInput,
} from '../contract.ts';
import { APP_ROLES, type AppType } from '../domain.ts';
import { fail } from '../errorCodes.ts';
import { verifyIdToken, type VerifiedIdentity } from '../idToken.ts';
import { registrationCodeMatches, smsReady } from '../registration.ts';
import { failRegistration, resendTooSoon } from '../registrationErrors.ts';
import type { BootstrapRow } from '../repo/apps.ts';
import { bindIdentity } from '../repo/identities.ts';
import * as repo from '../repo/registrations.ts';
import { appSession, signInContext } from '../signIn.ts';
import type { appRegistrationWorkflow } from '../workflows.ts';
import { appSessionView, context, device, idToken, sessionExample } from './signIn.ts';

const TAG = 'Platform apps';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const registrationId = z
  .string()
  .min(1)
  .max(64)
  .meta({ examples: ['0b6c3f52-9a41-4c8e-8f7d-2e5a1b9c7d30'] });

/** A registration that goes on: waiting for its code, or for the business's approval. */
const openView = z.object({
  result: z.literal(true),
  status: z.enum(['awaiting_code', 'pending_approval']),
  registration_id: z.string(),
  message: z.string(),
  expires_at: z.string().nullable().meta({ description: 'YYYY-MM-DD HH:MM:SS, UTC; null once no code is awaited' }),
  resend_after: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Seconds from one code to the next request for one; null once no code is awaited' }),
});
type OpenView = z.input<typeof openView>;
const sessionOrOpen = z.union([appSessionView, openView]);
const stillOpen = (o: { status?: unknown }) => o.status === 'awaiting_code' || o.status === 'pending_approval';
const awaitingExample: OpenView = {
  result: true,
  status: 'awaiting_code',
  registration_id: '0b6c3f52-9a41-4c8e-8f7d-2e5a1b9c7d30',
  message: 'A verification code is on its way to your phone.',
  expires_at: '2026-11-26 09:40:00',
  resend_after: 60,
};
const pendingExample: OpenView = {
  result: true,
  status: 'pending_approval',
  registration_id: awaitingExample.registration_id,
  message: 'Your account waits for the approval of Demo.',
  expires_at: null,
  resend_after: null,
};
/** 202 where the registration goes on: waiting for its code, or for the business's approval. */
const accepted = (example: OpenView) => ({
  when: stillOpen,
  description:
    'Accepted: the registration goes on (`status` awaiting_code: send the code the phone received to app_registration_verify; pending_approval: once the business approves the account, sign in with email)',
  example,
});

const APP_RULES =
  'The account gets the role of the app (customer apps: customer; driver apps: driver) in the client business. APP_UNAVAILABLE (403) when the app is unknown, not bound to the client or switched off; SIGN_IN_METHOD_OFF when it does not offer registration.';

/** The registration of `id` for this app and client; NOT_FOUND for any other (another app's or business's alike). */
async function registrationOf(em: Em, app: BootstrapRow, id: string, lock = false) {
  const row = UUID.test(id) ? await repo.registrationById(em, id, lock) : null;
  if (!row || row.app_id !== app.app_id || row.business_id !== app.business_id) throw errors.notFound();
  return row;
}

/** A registration that no longer waits for a code: REGISTRATION_EXPIRED (410) or REGISTRATION_CLOSED (409). */
function refuseUnlessAwaiting(row: repo.RegistrationRow): void {
  const lapsed = row.expires_at !== null && new Date(row.expires_at).getTime() <= Date.now();
  if (row.status === 'expired' || (row.status === 'awaiting_code' && lapsed))
    throw failRegistration('REGISTRATION_EXPIRED', 'apps.registration_expired');
  if (row.status !== 'awaiting_code')
    throw failRegistration('REGISTRATION_CLOSED', 'apps.registration_closed', { status: row.status });
}

/** EMAIL_TAKEN or IDENTITY_TAKEN, under the email's lock. */
async function refuseTaken(tx: Em, email: string, identity: { issuer: string; subject: string } | null) {
  await repo.lockEmail(tx, email);
  if (identity) await repo.lockIdentity(tx, identity.issuer, identity.subject);
  if (await repo.emailTaken(tx, email)) throw failRegistration('EMAIL_TAKEN', 'apps.email_taken');
  if (identity && (await repo.identityTaken(tx, identity.issuer, identity.subject)))
    throw failRegistration('IDENTITY_TAKEN', 'apps.identity_taken');
}

/** Makes the account of a registration (and binds its identity), in the caller's transaction. */
async function makeAccount(
  tx: Em,
  r: Pick<
    repo.RegistrationRow,
    'business_id' | 'email' | 'name' | 'role' | 'password_hash' | 'idp_issuer' | 'idp_subject'
  >,
) {
  const account = await repo.insertAccount(tx, {
    businessId: r.business_id,
    email: r.email,
    name: r.name,
    role: r.role,
    passwordHash: r.password_hash!,
  });
  if (!account) throw failRegistration('EMAIL_TAKEN', 'apps.email_taken');
  if (r.idp_issuer && r.idp_subject && !(await bindIdentity(tx, r.idp_issuer, r.idp_subject, account.id)))
    throw failRegistration('IDENTITY_TAKEN', 'apps.identity_taken');
  return account;
}

const pendingAnswer = (ctx: OperationContext, app: BootstrapRow, id: string): OpenView => ({
  result: true,
  status: 'pending_approval',
  registration_id: id,
  message: translate('apps.registration_pending', ctx.lang, { client: app.client_name }),
  expires_at: null,
  resend_after: null,
});

function identityProvider(ctx: OperationContext) {
  if (!ctx.config.idp) throw fail('SIGN_IN_METHOD_OFF', 'apps.idp_not_configured');
  return ctx.config.idp;
}

export const appRegister = defineOperation({
  name: 'app_register',
  summary: 'Register a new account in a standalone app, for its client business.',
  description: `Opens an account with name, email, password (8 to 1024 characters) and phone. The phone is read in E.164, or as a national number of the app's default_phone_region; VALIDATION_FAILED names a field that is not right. With id_token (after auth/idp answered REGISTRATION_REQUIRED), the account is bound to that identity, so auth/idp signs it in from then on; INVALID_ID_TOKEN (401) for a token that fails its checks. EMAIL_TAKEN (409) when an account, or a registration waiting for approval, has the email; IDENTITY_TAKEN (409) likewise for the identity. Where the app verifies phones (phone_verification_required) the answer is 202 with status awaiting_code, the registration_id, expires_at (10 minutes) and resend_after (seconds): a code of code_length digits goes to the phone by SMS, to be sent to app_register_verify; SMS_UNAVAILABLE (403) when no SMS provider is set up (the bootstrap's sms_configured is false). Otherwise, where the business approves new accounts (requires_approval), 202 with status pending_approval; else the account is made at once and the answer is the app session (200). ${APP_RULES}`,
  tag: TAG,
  roles: 'public',
  limit: 'sign_in',
  rest: {
    method: 'POST',
    path: '/v1/apps/{app_code}/clients/{client_code}/registrations',
    accepted: accepted(awaitingExample),
  },
  failures: {
    APP_UNAVAILABLE: 'The app is unknown, not bound to the client, or switched off',
    SIGN_IN_METHOD_OFF:
      'The app does not offer registration, or an id_token was sent and the service has no identity provider',
    SMS_UNAVAILABLE: 'The app verifies phones and no SMS provider is set up',
    INVALID_ID_TOKEN: 'The ID token fails its signature, issuer, audience or expiry',
    IDP_UNAVAILABLE: "The identity provider's keys cannot be read",
    EMAIL_TAKEN: true,
    IDENTITY_TAKEN: true,
  },
  input: z
    .object({
      ...context,
      name: z
        .string()
        .trim()
        .min(1)
        .max(191)
        .meta({ examples: ['Jana Nováková'] }),
      email: emailParam().toLowerCase(),
      password: z.string().min(8).max(1024),
      phone: z
        .string()
        .trim()
        .min(1)
        .max(40)
        .meta({ examples: ['+420 601 123 456'] }),
      ...device,
      id_token: idToken.optional(),
    })
    .strict(),
  output: sessionOrOpen,
  examples: {
    input: {
      app_code: 'demo-customer',
      client_code: 'DEMO',
      name: 'Jana Nováková',
      email: 'jana@example.com',
      password: 'correct horse battery',
      phone: '601 123 456',
      device_id: '5f0c2a9e-8d1b-4f7e-9a65-3c2b1d0e4f77',
      device_platform: 'android',
      app_version: '1.3.2',
    },
    output: sessionExample,
  },
  async handler(input, ctx) {
    const app = await signInContext(ctx.em, input.app_code, input.client_code, 'registration');
    const settings = app.config.authentication.registration;
    const phone = toE164(input.phone, settings.default_phone_region);
    if (!phone) throw errors.field('phone', 'apps.invalid_phone', { region: settings.default_phone_region });
    if (settings.phone_verification_required && !smsReady(app, ctx.config))
      throw failRegistration('SMS_UNAVAILABLE', 'apps.sms_unavailable');
    let who: VerifiedIdentity | null = null;
    if (input.id_token) {
      const audience = app.config.authentication.idp.server_client_id.trim();
      who = await verifyIdToken(identityProvider(ctx), input.id_token, audience ? [audience] : []);
    }
    const identity = who && { issuer: who.issuer, subject: who.subject };
    const id = randomUUID();
    const row: repo.NewRegistration = {
      id,
      app_id: app.app_id,
      business_id: app.business_id,
      role: APP_ROLES[app.type as AppType][0],
      name: input.name,
      email: input.email,
      password_hash: await hashPassword(input.password),
      phone,
      device_id: input.device_id,
      device_platform: input.device_platform,
      app_version: input.app_version ?? null,
      lang: ctx.lang,
      idp_issuer: identity?.issuer ?? null,
      idp_subject: identity?.subject ?? null,
      status: settings.phone_verification_required
        ? 'awaiting_code'
        : settings.requires_approval
          ? 'pending_approval'
          : 'completed',
      code_length: settings.code_length,
      expires_at: settings.phone_verification_required
        ? new Date(Date.now() + REGISTRATION_TTL_MS * ctx.config.registrationTimerScale)
        : null,
    };

    if (row.status === 'completed')
      return ctx.em.transactional(async (tx) => {
        await refuseTaken(tx, row.email, identity);
        const account = await makeAccount(tx, row);
        return appSession({ ...ctx, em: tx }, app, account, input);
      });

    await ctx.em.transactional(async (tx) => {
      await refuseTaken(tx, row.email, identity);
      await repo.insertRegistration(tx, row);
    });
    if (row.status === 'pending_approval') return pendingAnswer(ctx, app, id);

    const process: RegistrationInput = {
      id,
      expiresAt: row.expires_at!.toISOString(),
      resendAfterMs: settings.resend_after * 1000,
    };
    try {
      await ctx.temporal.workflow.start<typeof appRegistrationWorkflow>(REGISTRATION_WORKFLOW, {
        workflowId: registrationWorkflowId(id),
        taskQueue: REGISTRATION_QUEUE,
        args: [process],
        ...NO_DUPLICATES,
      });
    } catch (err) {
      // No process, no code: the row may not wait for one.
      await repo.expireRegistrationRow(ctx.em, id);
      throw err;
    }
    return {
      result: true as const,
      status: 'awaiting_code' as const,
      registration_id: id,
      message: translate('apps.registration_code_sent', ctx.lang),
      expires_at: formatDateTime(row.expires_at!),
      resend_after: settings.resend_after,
    };
  },
});

const registrationPath = { ...context, registration_id: registrationId };

export const appRegistrationResend = defineOperation({
  name: 'app_registration_resend',
  summary: "Send a new verification code to a registration's phone.",
  description: `For a registration waiting for its code (app_register answered awaiting_code): a new code of code_length digits goes to the phone, and only the newest code is accepted from then on. The registration keeps its expiry. RESEND_TOO_SOON (429, see Retry-After) before the app's resend_after seconds have passed since the last code was asked for; REGISTRATION_EXPIRED (410) once it has expired; REGISTRATION_CLOSED (409) once it was verified; NOT_FOUND for an id this app and client never answered. ${APP_RULES}`,
  tag: TAG,
  roles: 'public',
  limit: 'sign_in',
  rest: {
    method: 'POST',
    path: '/v1/apps/{app_code}/clients/{client_code}/registrations/{registration_id}/resend',
    status: 202,
  },
  failures: {
    APP_UNAVAILABLE: 'The app is unknown, not bound to the client, or switched off',
    SIGN_IN_METHOD_OFF: 'The app does not offer registration',
    NOT_FOUND: 'No such registration for this app and client',
    RESEND_TOO_SOON: true,
    REGISTRATION_EXPIRED: true,
    REGISTRATION_CLOSED: true,
  },
  input: z.object(registrationPath).strict(),
  output: openView,
  examples: {
    input: { app_code: 'demo-customer', client_code: 'DEMO', registration_id: awaitingExample.registration_id },
    output: awaitingExample,
  },
  async handler(input, ctx) {
    const app = await signInContext(ctx.em, input.app_code, input.client_code, 'registration');
    const row = await registrationOf(ctx.em, app, input.registration_id);
    refuseUnlessAwaiting(row);
    const gone = async () => {
      refuseUnlessAwaiting(await registrationOf(ctx.em, app, row.id));
      return failRegistration('REGISTRATION_EXPIRED', 'apps.registration_expired');
    };
    const handle = ctx.temporal.workflow.getHandle<typeof appRegistrationWorkflow>(registrationWorkflowId(row.id));
    try {
      await refusedAs(handle.executeUpdate(resendUpdate), { [REGISTRATION_CLOSED]: gone, [PROCESS_GONE]: gone });
    } catch (err) {
      if (
        err instanceof WorkflowUpdateFailedError &&
        err.cause instanceof ApplicationFailure &&
        err.cause.type === RESEND_TOO_SOON
      )
        throw resendTooSoon(Math.max(1, Number(err.cause.details?.[0]) || 1));
      throw err;
    }
    return {
      result: true as const,
      status: 'awaiting_code' as const,
      registration_id: row.id,
      message: translate('apps.registration_code_sent', ctx.lang),
      expires_at: formatDateTime(new Date(row.expires_at!)),
      resend_after: app.config.authentication.registration.resend_after,
    };
  },
});

export const appRegistrationVerify = defineOperation({
  name: 'app_registration_verify',
  summary: 'Complete a registration with the code sent to its phone: the account is made, or waits for approval.',
  description: `Checks the newest code sent for the registration. A wrong code is VALIDATION_FAILED on \`code\`; 5 wrong codes within 15 minutes lock the registration (TOO_MANY_ATTEMPTS, see Retry-After; during the lock even the right code is refused), and wrong codes from one address across registrations lock that address too. REGISTRATION_EXPIRED (410) once the registration has expired (10 minutes after app_register); REGISTRATION_CLOSED (409) once it was verified; NOT_FOUND for an id this app and client never answered. With the right code the account is made in one step, bound to the identity of the id_token given to app_register if any, and the answer is the app session (200); where the business approves new accounts (requires_approval), the answer is 202 with status pending_approval and no session: once a client admin approves it, the person signs in with email. EMAIL_TAKEN or IDENTITY_TAKEN (409) when an account took the email or the identity meanwhile. ${APP_RULES}`,
  tag: TAG,
  roles: 'public',
  limit: 'sign_in',
  rest: {
    method: 'POST',
    path: '/v1/apps/{app_code}/clients/{client_code}/registrations/{registration_id}/verify',
    accepted: accepted(pendingExample),
  },
  failures: {
    APP_UNAVAILABLE: 'The app is unknown, not bound to the client, or switched off',
    SIGN_IN_METHOD_OFF: 'The app does not offer registration',
    NOT_FOUND: 'No such registration for this app and client',
    TOO_MANY_ATTEMPTS:
      'Checks of this registration, or from this address, are locked after wrong codes; see Retry-After',
    REGISTRATION_EXPIRED: true,
    REGISTRATION_CLOSED: true,
    EMAIL_TAKEN: true,
    IDENTITY_TAKEN: true,
  },
  input: z
    .object({
      ...registrationPath,
      code: z
        .string()
        .regex(/^\d{4,8}$/)
        .meta({ examples: ['482913'] }),
    })
    .strict(),
  output: sessionOrOpen,
  examples: {
    input: {
      app_code: 'demo-customer',
      client_code: 'DEMO',
      registration_id: awaitingExample.registration_id,
      code: '482913',
    },
    output: sessionExample,
  },
  async handler(input, ctx) {
    const app = await signInContext(ctx.em, input.app_code, input.client_code, 'registration');
    const row = await registrationOf(ctx.em, app, input.registration_id);
    refuseUnlessAwaiting(row);
    const right = await checkCode(ctx.countsEm, {
      kind: 'registration_code',
      subject: `app_registration:${row.id}`,
      callerId: 0,
      callerSubject: `address:${ctx.clientAddress}`,
      verify: () => registrationCodeMatches(input.code, row.code_hash),
    });
    if (!right) throw errors.field('code', 'apps.wrong_code');
    const answer = await ctx.em.transactional(async (tx) => {
      const current = await registrationOf(tx, app, row.id, true);
      refuseUnlessAwaiting(current);
      // The code checked is still the newest: a resend in between makes it a wrong one.
      if (current.code_number !== row.code_number) throw errors.field('code', 'apps.wrong_code');
      await repo.lockEmail(tx, current.email);
      if (app.config.authentication.registration.requires_approval) {
        await refuseTaken(
          tx,
          current.email,
          current.idp_subject ? { issuer: current.idp_issuer!, subject: current.idp_subject } : null,
        );
        await repo.settleRegistration(tx, current.id, 'pending_approval');
        return pendingAnswer(ctx, app, current.id);
      }
      const account = await makeAccount(tx, current);
      await repo.settleRegistration(tx, current.id, 'completed', { userId: account.id });
      return appSession({ ...ctx, em: tx }, app, account, current);
    });
    // The process ends without expiring anything; if this signal is lost, its expiry finds nothing to expire.
    await ctx.temporal.workflow
      .getHandle(registrationWorkflowId(row.id))
      .signal(closeSignal)
      .catch((err: unknown) => ctx.log.warn({ err, registrationId: row.id }, 'registration process not closed'));
    return answer;
  },
});

const registrationView = z.object({
  id: z.string(),
  app_code: z.string(),
  status: z.enum(repo.REGISTRATION_STATUSES),
  name: z.string(),
  email: z.string(),
  phone: z.string().meta({ description: 'E.164' }),
  role: z.enum(['customer', 'driver']),
  device_platform: z.string(),
  identity_bound: z.boolean().meta({ description: 'The account is bound to an identity provider identity' }),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
const present = (r: repo.RegistrationListRow): z.input<typeof registrationView> => ({
  id: r.id,
  app_code: r.app_code,
  status: r.status,
  name: r.name,
  email: r.email,
  phone: r.phone,
  role: r.role,
  device_platform: r.device_platform,
  identity_bound: r.idp_subject !== null,
  created_at: formatDateTime(new Date(r.created_at)),
  decided_at: r.decided_at && formatDateTime(new Date(r.decided_at)),
});
const registrationExample = {
  id: awaitingExample.registration_id,
  app_code: 'demo-driver',
  status: 'pending_approval' as const,
  name: 'Petr Svoboda',
  email: 'petr@example.com',
  phone: '+420601123456',
  role: 'driver' as const,
  device_platform: 'android',
  identity_bound: false,
  created_at: '2026-11-26 09:30:00',
  decided_at: null,
};

const ADMIN = ['client_admin'] as const;
const BUSINESS_SCOPE =
  'Only the client admin of the business the app registered for; a registration of another business answers NOT_FOUND, as an unknown id does.';

/**
 * A decision on a registration of the caller's business that waits for approval: `settle` runs in one transaction
 * with the registration locked; the answer is the registration as it then is.
 */
async function decide(
  ctx: BusinessContext,
  registrationId: string,
  settle: (tx: Em, row: NonNullable<Awaited<ReturnType<typeof repo.businessRegistration>>>) => Promise<void>,
) {
  const id = await ctx.em.transactional(async (tx) => {
    const row = UUID.test(registrationId)
      ? await repo.businessRegistration(tx, ctx.caller.businessId, registrationId, true)
      : null;
    if (!row) throw errors.notFound();
    if (row.status !== 'pending_approval')
      throw failRegistration('REGISTRATION_CLOSED', 'apps.registration_closed', { status: row.status });
    await settle(tx, row);
    return row.id;
  });
  return {
    result: true as const,
    registration: present((await repo.businessRegistration(ctx.em, ctx.caller.businessId, id))!),
  };
}

const decidedExample = (status: 'completed' | 'rejected') => ({
  input: { registration_id: registrationExample.id },
  output: {
    result: true as const,
    registration: { ...registrationExample, status, decided_at: '2026-11-26 10:05:00' },
  },
});

export const appRegistrationsList = defineOperation({
  name: 'app_registrations_list',
  summary: "The business's app registrations, waiting for approval unless `status` says otherwise, newest first.",
  description: `Lists the registrations of the business's standalone apps by status: pending_approval (the default: verified, waiting for app_registration_approve or app_registration_reject), awaiting_code, completed, rejected or expired. 50 a page by default (\`page\`, \`per_page\` up to 200) with the \`total\`. Codes and passwords are never shown. ${BUSINESS_SCOPE}`,
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'GET', path: '/v1/app-registrations' },
  input: z.object({ status: z.enum(repo.REGISTRATION_STATUSES).default('pending_approval'), ...pageParams }).strict(),
  output: pageOutput('registrations', registrationView),
  examples: { output: { result: true, total: 1, page: 1, per_page: 50, registrations: [registrationExample] } },
  async handler(input, ctx) {
    const { total, rows } = await repo.listRegistrations(
      ctx.em,
      ctx.caller.businessId,
      input.status,
      input.per_page,
      offsetOf(input),
    );
    return pageOf(input, 'registrations', total, rows.map(present));
  },
});

const decisionOutput = z.object({ result: z.literal(true), registration: registrationView });

export const appRegistrationApprove = defineOperation({
  name: 'app_registration_approve',
  summary: 'Approve a registration waiting for approval: its account is made, and can sign in with email.',
  description: `Makes the account of a pending_approval registration, with the role of its app in the business, bound to the identity it registered with if any; the person then signs in with email (app_sign_in_email) or, with a bound identity, the identity provider. REGISTRATION_CLOSED (409) for a registration no longer waiting for approval; EMAIL_TAKEN or IDENTITY_TAKEN (409) when an account took its email or identity meanwhile. ${BUSINESS_SCOPE}`,
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/app-registrations/{registration_id}/approve' },
  failures: {
    NOT_FOUND: 'No such registration in the business',
    REGISTRATION_CLOSED: 'The registration is not waiting for approval',
    EMAIL_TAKEN: true,
    IDENTITY_TAKEN: true,
  },
  input: z.object({ registration_id: registrationId }).strict(),
  output: decisionOutput,
  examples: decidedExample('completed'),
  handler: (input, ctx) =>
    decide(ctx, input.registration_id, async (tx, row) => {
      await repo.lockEmail(tx, row.email);
      const account = await makeAccount(tx, row);
      await repo.settleRegistration(tx, row.id, 'completed', { userId: account.id, decidedBy: ctx.caller.id });
    }),
});

export const appRegistrationReject = defineOperation({
  name: 'app_registration_reject',
  summary: 'Reject a registration waiting for approval: no account is made.',
  description: `The registration ends rejected and its password hash is dropped; the person may register again. REGISTRATION_CLOSED (409) for a registration no longer waiting for approval. ${BUSINESS_SCOPE}`,
  tag: TAG,
  roles: ADMIN,
  business: true,
  rest: { method: 'POST', path: '/v1/app-registrations/{registration_id}/reject' },
  failures: {
    NOT_FOUND: 'No such registration in the business',
    REGISTRATION_CLOSED: 'The registration is not waiting for approval',
  },
  input: z.object({ registration_id: registrationId }).strict(),
  output: decisionOutput,
  examples: decidedExample('rejected'),
  handler: (input, ctx) =>
    decide(ctx, input.registration_id, (tx, row) =>
      repo.settleRegistration(tx, row.id, 'rejected', { decidedBy: ctx.caller.id }),
    ),
});

export const REGISTRATION_OPERATIONS = [
  appRegister,
  appRegistrationResend,
  appRegistrationVerify,
  appRegistrationsList,
  appRegistrationApprove,
  appRegistrationReject,
];
