import type { Messages } from '../../platform/i18n/messages.ts';

export const DELIVERY_PRICE_MESSAGES = {
  'delivery_prices.model_missing': {
    en: 'No delivery price model is set for your business yet; an administrator sets one first.',
    'zh-Hans': '您的企业尚未设置配送价格模型；请管理员先进行设置。',
    'zh-Hant': '您的企業尚未設定配送價格模型；請管理員先進行設定。',
    fr: "Aucun modèle de prix de livraison n'est encore défini pour votre entreprise ; un administrateur doit d'abord en définir un.",
    de: 'Für Ihr Unternehmen ist noch kein Lieferpreismodell festgelegt; ein Administrator muss zuerst eines festlegen.',
    es: 'Su empresa aún no tiene un modelo de precios de entrega; un administrador debe definirlo primero.',
  },
  'delivery_prices.coordinates_required': {
    en: "The price depends on the distance: give the recipient's address its coordinates (lat and lng).",
    'zh-Hans': '价格取决于距离：请为收件人地址提供坐标（lat 和 lng）。',
    'zh-Hant': '價格取決於距離：請為收件人地址提供座標（lat 和 lng）。',
    fr: "Le prix dépend de la distance : indiquez les coordonnées (lat et lng) de l'adresse du destinataire.",
    de: 'Der Preis hängt von der Entfernung ab: Geben Sie die Koordinaten (lat und lng) der Empfängeradresse an.',
    es: 'El precio depende de la distancia: indique las coordenadas (lat y lng) de la dirección del destinatario.',
  },
  'field.not_a_customer': {
    en: 'No customer account of your business has this id.',
    'zh-Hans': '您的企业没有此 ID 的客户账户。',
    'zh-Hant': '您的企業沒有此 ID 的客戶帳戶。',
    fr: "Aucun compte client de votre entreprise n'a cet identifiant.",
    de: 'Kein Kundenkonto Ihres Unternehmens hat diese ID.',
    es: 'Ninguna cuenta de cliente de su empresa tiene este id.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DELIVERY_PRICE_MESSAGES, true> {}
}
