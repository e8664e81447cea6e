/** The SMS sandbox's record, for the platform admin (docs/sms.md): what the sandbox provider would have sent. */
import { z } from 'zod';
import { offsetOf, pageOf, pageOutput, pageParams } from '../../platform/catalog/schemas.ts';
import { defineOperation } from '../../platform/catalog/types.ts';
import { openSecret, purposeOf } from '../../platform/secretBox.ts';
import { formatDateTime } from '../../platform/time.ts';
import { sandboxMessages, SEALED_SMS_TEXT } from './repo.ts';

export const SMS_TAG = 'SMS';

const messageView = z.object({
  id: z.number().int(),
  to: z.string().meta({ description: 'E.164' }),
  text: z.string(),
  purpose: z.string(),
  provider_message_id: z.string(),
  sent_at: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS, UTC' }),
});

export const smsSandboxMessages = defineOperation({
  name: 'sms_sandbox_messages',
  summary: 'The messages the SMS sandbox recorded instead of sending them, newest first.',
  description:
    "With SMS_PROVIDER=sandbox (npm start's setting) nothing is sent: every message, such as an app registration's verification code, is recorded here, its text sealed at rest, one per idempotency key. `to` (E.164, such as +420601123456) keeps those to one number; 50 a page by default (`page`, `per_page` up to 200) with the `total`. A real provider's messages are never listed: their texts are not kept. Only the platform admin may call it (FORBIDDEN to every other role).",
  tag: SMS_TAG,
  roles: ['platform_admin'],
  rest: { method: 'GET', path: '/v1/platform/sms/sandbox-messages' },
  input: z
    .object({
      to: z
        .string()
        .regex(/^\+[1-9]\d{6,14}$/)
        .optional()
        .describe('Only the messages to this number, in E.164')
        .meta({ examples: ['+420601123456'] }),
      ...pageParams,
    })
    .strict(),
  output: pageOutput('messages', messageView),
  examples: {
    output: {
      result: true,
      total: 1,
      page: 1,
      per_page: 50,
      messages: [
        {
          id: 7,
          to: '+420601123456',
          text: 'Your Demo Parcels code is 482913. It expires in 10 minutes.',
          purpose: 'registration',
          provider_message_id: 'SB5a1c0f3e9b2d4c6a8e7f1b3d5c9a0e2f',
          sent_at: '2026-11-26 09:30:00',
        },
      ],
    },
  },
  async handler(input, ctx) {
    const { total, rows } = await sandboxMessages(ctx.em, input.to ?? null, input.per_page, offsetOf(input));
    return pageOf(
      input,
      'messages',
      total,
      rows.map((r) => ({
        id: r.id,
        to: r.to_number,
        text: openSecret(purposeOf(SEALED_SMS_TEXT), r.sealed_text),
        purpose: r.purpose,
        provider_message_id: r.provider_message_id,
        sent_at: formatDateTime(new Date(r.sent_at)),
      })),
    );
  },
});
