import type { Messages } from '../../platform/i18n/messages.ts';

export const DRIVER_LOCATION_MESSAGES = {
  'field.recorded_in_future': {
    en: 'Must not be in the future.',
    'zh-Hans': '不能是未来的时间。',
    'zh-Hant': '不能是未來的時間。',
    fr: 'Ne doit pas être dans le futur.',
    de: 'Darf nicht in der Zukunft liegen.',
    es: 'No puede estar en el futuro.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DRIVER_LOCATION_MESSAGES, true> {}
}
