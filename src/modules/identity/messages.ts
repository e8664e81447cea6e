import type { Messages } from '../../platform/i18n/messages.ts';

export const IDENTITY_MESSAGES = {
  'auth.logged_out': {
    en: 'You have been signed out.',
    'zh-Hans': '您已退出登录。',
    'zh-Hant': '您已登出。',
    fr: 'Vous avez été déconnecté.',
    de: 'Sie wurden abgemeldet.',
    es: 'Se ha cerrado su sesión.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof IDENTITY_MESSAGES, true> {}
}
