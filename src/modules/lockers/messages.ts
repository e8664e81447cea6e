import type { Messages } from '../../platform/i18n/messages.ts';

export const LOCKERS_MESSAGES = {
  'lockers.too_many_keys': {
    en: 'This device already holds {max} active keys; revoke one first.',
    'zh-Hans': '该设备已有 {max} 个有效密钥；请先吊销一个。',
    'zh-Hant': '該裝置已有 {max} 個有效金鑰；請先撤銷一個。',
    fr: "Cet appareil détient déjà {max} clés actives ; révoquez-en une d'abord.",
    de: 'Dieses Gerät hat bereits {max} aktive Schlüssel; widerrufen Sie zuerst einen.',
    es: 'Este dispositivo ya tiene {max} claves activas; revoque una primero.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof LOCKERS_MESSAGES, true> {}
}
