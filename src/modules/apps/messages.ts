import type { Messages } from '../../platform/i18n/messages.ts';

export const APPS_MESSAGES = {
  'apps.unavailable': {
    en: 'This app is not available for this client at the moment.',
    'zh-Hans': '此应用目前对该客户不可用。',
    'zh-Hant': '此應用程式目前對該客戶不可用。',
    fr: "Cette application n'est pas disponible pour ce client pour le moment.",
    de: 'Diese App ist für diesen Kunden derzeit nicht verfügbar.',
    es: 'Esta aplicación no está disponible para este cliente en este momento.',
  },
  'apps.recommended_below_minimum': {
    en: 'The recommended version must not be below the minimum version.',
    'zh-Hans': '推荐版本不得低于最低版本。',
    'zh-Hant': '建議版本不得低於最低版本。',
    fr: 'La version recommandée ne doit pas être inférieure à la version minimale.',
    de: 'Die empfohlene Version darf nicht unter der Mindestversion liegen.',
    es: 'La versión recomendada no puede ser inferior a la versión mínima.',
  },
  'apps.too_many_capabilities': {
    en: 'An app has at most 200 capabilities.',
    'zh-Hans': '一个应用最多有 200 项功能。',
    'zh-Hant': '一個應用程式最多有 200 項功能。',
    fr: 'Une application a au plus 200 capacités.',
    de: 'Eine App hat höchstens 200 Fähigkeiten.',
    es: 'Una aplicación tiene como máximo 200 capacidades.',
  },
  'apps.quick_action_twice': {
    en: 'Each quick action may appear only once.',
    'zh-Hans': '每个快捷操作只能出现一次。',
    'zh-Hant': '每個快捷操作只能出現一次。',
    fr: 'Chaque action rapide ne peut figurer qu’une fois.',
    de: 'Jede Schnellaktion darf nur einmal vorkommen.',
    es: 'Cada acción rápida solo puede aparecer una vez.',
  },
  'apps.idp_audience_required': {
    en: 'Identity provider sign-in needs the server client id (the audience of the ID tokens).',
    'zh-Hans': '身份提供方登录需要服务器客户端 ID（ID 令牌的受众）。',
    'zh-Hant': '身分提供者登入需要伺服器用戶端 ID（ID 權杖的受眾）。',
    fr: "La connexion par fournisseur d'identité exige l'identifiant client serveur (l'audience des jetons d'identité).",
    de: 'Die Anmeldung über den Identitätsanbieter braucht die Server-Client-ID (die Zielgruppe der ID-Token).',
    es: 'El inicio de sesión con proveedor de identidad necesita el id de cliente del servidor (la audiencia de los tokens de id).',
  },
  'apps.registration_mismatch': {
    en: 'The registration method and the registration settings must both be on or both be off.',
    'zh-Hans': '注册方式与注册设置必须同时开启或同时关闭。',
    'zh-Hant': '註冊方式與註冊設定必須同時開啟或同時關閉。',
    fr: "La méthode d'inscription et les réglages d'inscription doivent être tous deux activés ou tous deux désactivés.",
    de: 'Die Registrierungsmethode und die Registrierungseinstellungen müssen beide an oder beide aus sein.',
    es: 'El método de registro y los ajustes de registro deben estar ambos activados o ambos desactivados.',
  },
  'apps.contract_twice': {
    en: 'Each service contract code may appear only once.',
    'zh-Hans': '每个服务协议代码只能出现一次。',
    'zh-Hant': '每個服務協議代碼只能出現一次。',
    fr: 'Chaque code de contrat de service ne peut figurer qu’une fois.',
    de: 'Jeder Code eines Leistungsvertrags darf nur einmal vorkommen.',
    es: 'Cada código de contrato de servicio solo puede aparecer una vez.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof APPS_MESSAGES, true> {}
}
