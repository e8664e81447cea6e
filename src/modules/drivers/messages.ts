import type { Messages } from '../../platform/i18n/messages.ts';

export const DRIVERS_MESSAGES = {
  'drivers.shift_order': {
    en: 'The shift must end after it starts, on the same day.',
    'zh-Hans': '班次的结束时间必须晚于开始时间，且在同一天内。',
    'zh-Hant': '班次的結束時間必須晚於開始時間，且在同一天內。',
    fr: 'Le service doit finir après son début, le même jour.',
    de: 'Die Schicht muss am selben Tag nach ihrem Beginn enden.',
    es: 'El turno debe terminar después de empezar, el mismo día.',
  },
  'drivers.break_order': {
    en: 'A break must end after it starts.',
    'zh-Hans': '休息的结束时间必须晚于开始时间。',
    'zh-Hant': '休息的結束時間必須晚於開始時間。',
    fr: 'Une pause doit finir après son début.',
    de: 'Eine Pause muss nach ihrem Beginn enden.',
    es: 'Un descanso debe terminar después de empezar.',
  },
  'drivers.break_outside_shift': {
    en: 'A break must lie inside the shift.',
    'zh-Hans': '休息时间必须在班次之内。',
    'zh-Hant': '休息時間必須在班次之內。',
    fr: 'Une pause doit se trouver pendant le service.',
    de: 'Eine Pause muss innerhalb der Schicht liegen.',
    es: 'Un descanso debe estar dentro del turno.',
  },
  'drivers.break_too_long': {
    en: "The break's minutes must fit between its start and end.",
    'zh-Hans': '休息分钟数必须在其开始和结束时间之间容纳得下。',
    'zh-Hant': '休息分鐘數必須在其開始和結束時間之間容納得下。',
    fr: 'Les minutes de la pause doivent tenir entre son début et sa fin.',
    de: 'Die Minuten der Pause müssen zwischen ihren Beginn und ihr Ende passen.',
    es: 'Los minutos del descanso deben caber entre su inicio y su fin.',
  },
  'drivers.email_taken': {
    en: 'An account has this email already.',
    'zh-Hans': '已有账户使用此电子邮件。',
    'zh-Hant': '已有帳戶使用此電子郵件。',
    fr: 'Un compte utilise déjà cette adresse e-mail.',
    de: 'Ein Konto hat diese E-Mail-Adresse bereits.',
    es: 'Ya hay una cuenta con este correo electrónico.',
  },
  'drivers.status_conflict': {
    en: 'The driver is {status}: this decision does not apply.',
    'zh-Hans': '该司机状态为 {status}：此决定不适用。',
    'zh-Hant': '該司機狀態為 {status}：此決定不適用。',
    fr: 'Le chauffeur est {status} : cette décision ne s’applique pas.',
    de: 'Der Fahrer ist {status}: Diese Entscheidung ist nicht möglich.',
    es: 'El conductor está {status}: esta decisión no procede.',
  },
  'drivers.not_active': {
    en: 'The driver is not active.',
    'zh-Hans': '该司机未处于启用状态。',
    'zh-Hant': '該司機未處於啟用狀態。',
    fr: 'Le chauffeur n’est pas actif.',
    de: 'Der Fahrer ist nicht aktiv.',
    es: 'El conductor no está activo.',
  },
  'drivers.unknown_client': {
    en: 'No business has this client code.',
    'zh-Hans': '没有企业使用此客户代码。',
    'zh-Hant': '沒有企業使用此客戶代碼。',
    fr: 'Aucune entreprise n’a ce code client.',
    de: 'Kein Unternehmen hat diesen Kundencode.',
    es: 'Ninguna empresa tiene este código de cliente.',
  },
  'drivers.invalid_phone': {
    en: 'Not a phone number; write it in international form, such as +420601123456.',
    'zh-Hans': '不是有效的电话号码；请使用国际格式，例如 +420601123456。',
    'zh-Hant': '不是有效的電話號碼；請使用國際格式，例如 +420601123456。',
    fr: 'Numéro de téléphone invalide ; écrivez-le au format international, par exemple +420601123456.',
    de: 'Keine Telefonnummer; schreiben Sie sie international, etwa +420601123456.',
    es: 'No es un número de teléfono; escríbalo en formato internacional, como +420601123456.',
  },
  'drivers.registered': {
    en: 'Registration received. The business will review it; you can sign in once it approves you.',
    'zh-Hans': '已收到注册。企业将进行审核；批准后即可登录。',
    'zh-Hant': '已收到註冊。企業將進行審核；核准後即可登入。',
    fr: 'Inscription reçue. L’entreprise va l’examiner ; vous pourrez vous connecter dès qu’elle vous aura approuvé.',
    de: 'Registrierung erhalten. Das Unternehmen prüft sie; Sie können sich anmelden, sobald es Sie freigibt.',
    es: 'Registro recibido. La empresa lo revisará; podrá iniciar sesión cuando le apruebe.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DRIVERS_MESSAGES, true> {}
}
