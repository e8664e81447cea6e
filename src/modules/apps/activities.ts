import { ApplicationFailure } from '@temporalio/common';
import { translate } from '../../platform/i18n/messages.ts';
import type { Language } from '../../platform/i18n/languages.ts';
import type { WorkerDeps } from '../../platform/module.ts';
import { smsSender, SmsSendError } from '../sms/index.ts';
import { SMS_REFUSED, type RegistrationActivities } from './contract.ts';
import { codeIdempotencyKey, hashRegistrationCode, registrationCode } from './registration.ts';
import { expireRegistrationRow, storeCode } from './repo/registrations.ts';

export function createRegistrationActivities(deps: WorkerDeps): RegistrationActivities {
  const sender = smsSender(deps.orm, deps.config);
  return {
    async sendRegistrationCode({ id, codeNumber }) {
      const em = deps.orm.em.fork();
      let code = '';
      const target = await storeCode(em, id, codeNumber, (length) => {
        code = registrationCode(id, codeNumber, length);
        return hashRegistrationCode(code);
      });
      if (!target) return 'closed';
      if (!sender)
        throw ApplicationFailure.create({
          type: SMS_REFUSED,
          message: 'no SMS provider is configured',
          nonRetryable: true,
        });
      try {
        await sender.send({
          to: target.phone,
          text: translate('apps.registration_code_sms', target.lang as Language, {
            app: target.display_name,
            code,
            minutes: 10,
          }),
          purpose: 'registration',
          idempotencyKey: codeIdempotencyKey(id, codeNumber),
        });
      } catch (err) {
        if (err instanceof SmsSendError && !err.retryable)
          throw ApplicationFailure.create({ type: SMS_REFUSED, message: err.message, nonRetryable: true });
        throw err;
      }
      return 'sent';
    },
    async expireRegistration({ id }) {
      return (await expireRegistrationRow(deps.orm.em.fork(), id)) ? 'expired' : 'closed';
    },
  };
}
