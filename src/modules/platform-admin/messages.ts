import type { Messages } from '../../platform/i18n/messages.ts';

export const PLATFORM_ADMIN_MESSAGES = {
  'platform_admin.feature_disabled': {
    en: 'This feature is switched off for your business.',
    'zh-Hans': '此功能已为您的企业关闭。',
    'zh-Hant': '此功能已為您的企業關閉。',
    fr: 'Cette fonctionnalité est désactivée pour votre entreprise.',
    de: 'Diese Funktion ist für Ihr Unternehmen ausgeschaltet.',
    es: 'Esta función está desactivada para su empresa.',
  },
  'platform_admin.sms_marketing_revoked': {
    en: 'SMS Marketing has been revoked for your business by the platform.',
    'zh-Hans': '平台已撤销您企业的短信营销功能。',
    'zh-Hant': '平台已撤銷您企業的簡訊行銷功能。',
    fr: 'Le marketing par SMS a été retiré à votre entreprise par la plateforme.',
    de: 'SMS-Marketing wurde Ihrem Unternehmen von der Plattform entzogen.',
    es: 'La plataforma ha revocado el marketing por SMS para su empresa.',
  },
  'platform_admin.sms_marketing_not_migrated': {
    en: 'SMS Marketing is not set up for your business yet: its SMS sender has not been migrated.',
    'zh-Hans': '您的企业尚未设置短信营销：其短信发送方尚未迁移。',
    'zh-Hant': '您的企業尚未設定簡訊行銷：其簡訊發送方尚未遷移。',
    fr: "Le marketing par SMS n'est pas encore configuré pour votre entreprise : son expéditeur SMS n'a pas été migré.",
    de: 'SMS-Marketing ist für Ihr Unternehmen noch nicht eingerichtet: sein SMS-Absender wurde noch nicht migriert.',
    es: 'El marketing por SMS aún no está configurado para su empresa: su remitente de SMS no se ha migrado.',
  },
  'platform_admin.family_staff_only': {
    en: 'This feature is for the client and employee accounts of a business only.',
    'zh-Hans': '此功能仅供企业的客户管理员和员工账户使用。',
    'zh-Hant': '此功能僅供企業的客戶管理員和員工帳戶使用。',
    fr: "Cette fonctionnalité est réservée aux comptes client et employé d'une entreprise.",
    de: 'Diese Funktion ist nur für die Kunden- und Mitarbeiterkonten eines Unternehmens.',
    es: 'Esta función es solo para las cuentas de cliente y de empleado de una empresa.',
  },
  'platform_admin.family_business_only': {
    en: 'This feature is for the accounts of a business only.',
    'zh-Hans': '此功能仅供企业的账户使用。',
    'zh-Hant': '此功能僅供企業的帳戶使用。',
    fr: "Cette fonctionnalité est réservée aux comptes d'une entreprise.",
    de: 'Diese Funktion ist nur für die Konten eines Unternehmens.',
    es: 'Esta función es solo para las cuentas de una empresa.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof PLATFORM_ADMIN_MESSAGES, true> {}
}
