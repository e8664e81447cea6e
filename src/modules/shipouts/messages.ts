import type { Messages } from '../../platform/i18n/messages.ts';

export const SHIPOUTS_MESSAGES = {
  'shipouts.unknown_service': {
    en: 'No active ship-out service has this code.',
    'zh-Hans': '没有此代码的有效出库服务。',
    'zh-Hant': '沒有此代碼的有效出庫服務。',
    fr: 'Aucun service d’expédition depuis l’entrepôt actif n’a ce code.',
    de: 'Kein aktiver Auslagerungsdienst hat diesen Code.',
    es: 'Ningún servicio de salida de almacén activo tiene este código.',
  },
  'shipouts.wrong_state': {
    en: 'A ship-out in status {status} does not allow this.',
    'zh-Hans': '状态为 {status} 的出库单不允许此操作。',
    'zh-Hant': '狀態為 {status} 的出庫單不允許此操作。',
    fr: 'Une expédition au statut {status} ne le permet pas.',
    de: 'Eine Auslagerung im Status {status} erlaubt dies nicht.',
    es: 'Una salida en estado {status} no lo permite.',
  },
  'shipouts.not_priced': {
    en: 'The ship-out is not priced yet: it can be paid once the business has priced it.',
    'zh-Hans': '出库单尚未定价：企业定价后方可支付。',
    'zh-Hant': '出庫單尚未定價：企業定價後方可支付。',
    fr: 'L’expédition n’a pas encore de prix : elle pourra être payée une fois son prix fixé.',
    de: 'Die Auslagerung hat noch keinen Preis: Sie kann bezahlt werden, sobald das Unternehmen sie bepreist hat.',
    es: 'La salida aún no tiene precio: podrá pagarse cuando la empresa le ponga precio.',
  },
  'shipouts.nothing_due': {
    en: 'Nothing is due on this ship-out: it is paid.',
    'zh-Hans': '此出库单无需支付：已付清。',
    'zh-Hant': '此出庫單無需支付：已付清。',
    fr: 'Rien n’est dû pour cette expédition : elle est payée.',
    de: 'Für diese Auslagerung ist nichts fällig: Sie ist bezahlt.',
    es: 'No se debe nada por esta salida: está pagada.',
  },
  'shipouts.price_hidden': {
    en: 'Prices of storage services are settled offline for your account: the business records the payment.',
    'zh-Hans': '您账户的仓储服务费用线下结算：由企业登记付款。',
    'zh-Hant': '您帳戶的倉儲服務費用線下結算：由企業登記付款。',
    fr: 'Les prix des services de stockage de votre compte se règlent hors ligne : l’entreprise enregistre le paiement.',
    de: 'Preise für Lagerleistungen werden für Ihr Konto offline beglichen: Das Unternehmen erfasst die Zahlung.',
    es: 'Los precios de los servicios de almacenamiento de su cuenta se liquidan fuera de línea: la empresa registra el pago.',
  },
  'shipouts.amount_too_large': {
    en: 'The amount is more than the balance due ({due}).',
    'zh-Hans': '金额超过应付余额（{due}）。',
    'zh-Hant': '金額超過應付餘額（{due}）。',
    fr: 'Le montant dépasse le solde dû ({due}).',
    de: 'Der Betrag übersteigt den offenen Saldo ({due}).',
    es: 'El importe supera el saldo pendiente ({due}).',
  },
  'shipouts.bad_amount': {
    en: 'A positive amount with at most {digits} decimals.',
    'zh-Hans': '须为正数金额，最多 {digits} 位小数。',
    'zh-Hant': '須為正數金額，最多 {digits} 位小數。',
    fr: 'Un montant positif d’au plus {digits} décimales.',
    de: 'Ein positiver Betrag mit höchstens {digits} Nachkommastellen.',
    es: 'Un importe positivo con {digits} decimales como máximo.',
  },
  'shipouts.lines_total': {
    en: 'The lines add up to {sum}, not the total.',
    'zh-Hans': '明细合计为 {sum}，与总额不符。',
    'zh-Hant': '明細合計為 {sum}，與總額不符。',
    fr: 'Les lignes totalisent {sum}, pas le total.',
    de: 'Die Positionen ergeben {sum}, nicht die Summe.',
    es: 'Las líneas suman {sum}, no el total.',
  },
  'shipouts.duplicate_package': {
    en: 'Name each package once.',
    'zh-Hans': '每个包裹只能列出一次。',
    'zh-Hant': '每個包裹只能列出一次。',
    fr: 'Citez chaque colis une seule fois.',
    de: 'Jedes Paket darf nur einmal genannt werden.',
    es: 'Indique cada paquete una sola vez.',
  },
  'shipouts.key_reused': {
    en: 'This idempotency key created another ship-out (other packages or another service).',
    'zh-Hans': '此幂等键已创建了另一出库单（包裹或服务不同）。',
    'zh-Hant': '此冪等鍵已建立了另一出庫單（包裹或服務不同）。',
    fr: 'Cette clé d’idempotence a créé une autre expédition (d’autres colis ou un autre service).',
    de: 'Dieser Idempotenzschlüssel hat eine andere Auslagerung erzeugt (andere Pakete oder ein anderer Dienst).',
    es: 'Esta clave de idempotencia creó otra salida (otros paquetes u otro servicio).',
  },
  'shipouts.no_carrier_rate': {
    en: 'The carrier gave no rate for this ship-out’s service.',
    'zh-Hans': '承运商未对此出库服务给出报价。',
    'zh-Hant': '承運商未對此出庫服務給出報價。',
    fr: 'Le transporteur n’a donné aucun tarif pour le service de cette expédition.',
    de: 'Der Spediteur hat für den Dienst dieser Auslagerung keinen Tarif genannt.',
    es: 'El transportista no dio tarifa para el servicio de esta salida.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof SHIPOUTS_MESSAGES, true> {}
}
