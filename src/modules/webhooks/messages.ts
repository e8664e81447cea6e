import type { Messages } from '../../platform/i18n/messages.ts';

export const WEBHOOKS_MESSAGES = {
  'field.invalid_url': {
    en: 'Give one or more http(s) URLs, separated by commas.',
    'zh-Hans': '请提供一个或多个 http(s) 网址，以逗号分隔。',
    'zh-Hant': '請提供一個或多個 http(s) 網址，以逗號分隔。',
    fr: 'Indiquez une ou plusieurs URL http(s), séparées par des virgules.',
    de: 'Geben Sie eine oder mehrere http(s)-URLs an, durch Kommas getrennt.',
    es: 'Indique una o varias URL http(s), separadas por comas.',
  },
  'field.private_url': {
    en: 'Webhooks cannot be sent to a loopback, private or link-local address.',
    'zh-Hans': 'Webhook 不能发送到回环、私有或链路本地地址。',
    'zh-Hant': 'Webhook 不能傳送到迴路、私有或鏈路本機位址。',
    fr: 'Les webhooks ne peuvent pas être envoyés à une adresse de bouclage, privée ou lien-local.',
    de: 'Webhooks können nicht an eine Loopback-, private oder Link-Local-Adresse gesendet werden.',
    es: 'Los webhooks no pueden enviarse a una dirección de bucle invertido, privada o de enlace local.',
  },
  'field.unknown_event': {
    en: 'Unknown event: {event}.',
    'zh-Hans': '未知事件：{event}。',
    'zh-Hant': '未知事件：{event}。',
    fr: 'Événement inconnu : {event}.',
    de: 'Unbekanntes Ereignis: {event}.',
    es: 'Evento desconocido: {event}.',
  },
  'field.unknown_customer': {
    en: 'No customer account with this id in your business.',
    'zh-Hans': '您的企业中没有此 ID 的客户账户。',
    'zh-Hant': '您的企業中沒有此 ID 的客戶帳戶。',
    fr: "Aucun compte client avec cet identifiant dans votre entreprise.",
    de: 'In Ihrem Unternehmen gibt es kein Kundenkonto mit dieser ID.',
    es: 'No hay ninguna cuenta de cliente con este id en su empresa.',
  },
  'webhook.delivery_in_progress': {
    en: 'This delivery is still being attempted; replay it once it is delivered or dead-lettered.',
    'zh-Hans': '该投递仍在尝试中；请在其送达或进入死信后再重放。',
    'zh-Hant': '該投遞仍在嘗試中；請在其送達或進入死信後再重播。',
    fr: 'Cette livraison est encore en cours de tentative ; rejouez-la une fois livrée ou en lettre morte.',
    de: 'Diese Zustellung wird noch versucht; wiederholen Sie sie, wenn sie zugestellt oder unzustellbar ist.',
    es: 'Esta entrega aún se está intentando; reprodúzcala cuando esté entregada o en mensajes fallidos.',
  },
  'field.filter_required': {
    en: 'Give delivery_ids or at least one filter.',
    'zh-Hans': '请提供 delivery_ids 或至少一个筛选条件。',
    'zh-Hant': '請提供 delivery_ids 或至少一個篩選條件。',
    fr: 'Indiquez delivery_ids ou au moins un filtre.',
    de: 'Geben Sie delivery_ids oder mindestens einen Filter an.',
    es: 'Indique delivery_ids o al menos un filtro.',
  },
  'field.range_reversed': {
    en: 'Must be later than from.',
    'zh-Hans': '必须晚于 from。',
    'zh-Hant': '必須晚於 from。',
    fr: 'Doit être postérieur à from.',
    de: 'Muss später als from sein.',
    es: 'Debe ser posterior a from.',
  },
  'webhook.secret_missing': {
    en: 'Set a webhook signing secret first: unsigned webhooks are never sent.',
    'zh-Hans': '请先设置 Webhook 签名密钥：未签名的 Webhook 不会发送。',
    'zh-Hant': '請先設定 Webhook 簽章密鑰：未簽章的 Webhook 不會發送。',
    fr: "Définissez d'abord un secret de signature : aucun webhook non signé n'est envoyé.",
    de: 'Legen Sie zuerst ein Signaturgeheimnis fest: unsignierte Webhooks werden nie gesendet.',
    es: 'Configure primero un secreto de firma: nunca se envían webhooks sin firmar.',
  },
  'field.no_receiving_url': {
    en: 'No configured URL receives this event.',
    'zh-Hans': '没有已配置的 URL 接收此事件。',
    'zh-Hant': '沒有已設定的 URL 接收此事件。',
    fr: 'Aucune URL configurée ne reçoit cet événement.',
    de: 'Keine konfigurierte URL empfängt dieses Ereignis.',
    es: 'Ninguna URL configurada recibe este evento.',
  },
  'webhook.provider_not_configured': {
    en: 'Configure the webhook endpoint first.',
    'zh-Hans': '请先配置 Webhook 端点。',
    'zh-Hant': '請先設定 Webhook 端點。',
    fr: "Configurez d'abord le point de terminaison webhook.",
    de: 'Konfigurieren Sie zuerst den Webhook-Endpunkt.',
    es: 'Configure primero el endpoint de webhook.',
  },
  'webhook.sandbox_disabled': {
    en: 'Sandbox delivery is switched off for this endpoint.',
    'zh-Hans': '此端点的沙盒投递已关闭。',
    'zh-Hant': '此端點的沙盒投遞已關閉。',
    fr: 'La livraison sandbox est désactivée pour ce point de terminaison.',
    de: 'Die Sandbox-Zustellung ist für diesen Endpunkt ausgeschaltet.',
    es: 'La entrega de sandbox está desactivada para este endpoint.',
  },
  'webhook.challenge_failed': {
    en: 'The endpoint did not echo the challenge within 3 seconds: {reason}.',
    'zh-Hans': '端点未在 3 秒内回显质询值：{reason}。',
    'zh-Hant': '端點未在 3 秒內回傳質詢值：{reason}。',
    fr: "Le point de terminaison n'a pas renvoyé le défi en 3 secondes : {reason}.",
    de: 'Der Endpunkt hat die Challenge nicht innerhalb von 3 Sekunden zurückgegeben: {reason}.',
    es: 'El endpoint no devolvió el desafío en 3 segundos: {reason}.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof WEBHOOKS_MESSAGES, true> {}
}
