import type { Messages } from '../../platform/i18n/messages.ts';

export const SMS_MARKETING_MESSAGES = {
  'sms_marketing.already_started': {
    en: 'This campaign has already been started.',
    'zh-Hans': '此活动已经开始。',
    'zh-Hant': '此活動已經開始。',
    fr: 'Cette campagne a déjà été lancée.',
    de: 'Diese Kampagne wurde bereits gestartet.',
    es: 'Esta campaña ya se ha iniciado.',
  },
  'sms_marketing.not_started': {
    en: 'This campaign has not been started yet.',
    'zh-Hans': '此活动尚未开始。',
    'zh-Hant': '此活動尚未開始。',
    fr: "Cette campagne n'a pas encore été lancée.",
    de: 'Diese Kampagne wurde noch nicht gestartet.',
    es: 'Esta campaña aún no se ha iniciado.',
  },
  'sms_marketing.ended': {
    en: 'This campaign has ended.',
    'zh-Hans': '此活动已结束。',
    'zh-Hant': '此活動已結束。',
    fr: 'Cette campagne est terminée.',
    de: 'Diese Kampagne ist beendet.',
    es: 'Esta campaña ha terminado.',
  },
  'sms_marketing.no_provider': {
    en: 'No SMS provider is set up for the service: campaigns cannot be sent for now.',
    'zh-Hans': '服务尚未配置短信提供商：目前无法发送活动短信。',
    'zh-Hant': '服務尚未設定簡訊供應商：目前無法傳送活動簡訊。',
    fr: "Aucun fournisseur de SMS n'est configuré pour le service : les campagnes ne peuvent pas être envoyées pour l'instant.",
    de: 'Für den Dienst ist kein SMS-Anbieter eingerichtet: Kampagnen können derzeit nicht gesendet werden.',
    es: 'No hay ningún proveedor de SMS configurado para el servicio: por ahora no se pueden enviar campañas.',
  },
  'sms_marketing.quiet_hours_too_short': {
    en: 'Quiet hours must last at least {hours} hours.',
    'zh-Hans': '免打扰时段必须至少持续 {hours} 小时。',
    'zh-Hant': '勿擾時段必須至少持續 {hours} 小時。',
    fr: 'Les heures de silence doivent durer au moins {hours} heures.',
    de: 'Die Ruhezeit muss mindestens {hours} Stunden dauern.',
    es: 'El horario de silencio debe durar al menos {hours} horas.',
  },
  'sms_marketing.send_at_range': {
    en: 'The send time must be in the future and at most a year ahead.',
    'zh-Hans': '发送时间必须在将来，且不超过一年。',
    'zh-Hant': '傳送時間必須在未來，且不超過一年。',
    fr: "L'heure d'envoi doit être dans le futur et au plus dans un an.",
    de: 'Der Sendezeitpunkt muss in der Zukunft und höchstens ein Jahr entfernt liegen.',
    es: 'La hora de envío debe estar en el futuro y como máximo dentro de un año.',
  },
  'sms_marketing.invalid_phone': {
    en: 'This is not a valid phone number.',
    'zh-Hans': '这不是有效的电话号码。',
    'zh-Hant': '這不是有效的電話號碼。',
    fr: "Ce n'est pas un numéro de téléphone valide.",
    de: 'Dies ist keine gültige Telefonnummer.',
    es: 'Este no es un número de teléfono válido.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof SMS_MARKETING_MESSAGES, true> {}
}
