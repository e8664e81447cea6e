import type { Messages } from '../../platform/i18n/messages.ts';

export const SHIPPING_ORDERS_MESSAGES = {
  'shipping_orders.too_many_packages': {
    en: 'This service takes at most {max} packages per order.',
    'zh-Hans': '此服务每个订单最多 {max} 个包裹。',
    'zh-Hant': '此服務每張訂單最多 {max} 個包裹。',
    fr: 'Ce service accepte au plus {max} colis par commande.',
    de: 'Dieser Dienst nimmt höchstens {max} Pakete pro Auftrag an.',
    es: 'Este servicio admite como máximo {max} paquetes por pedido.',
  },
  'shipping_orders.too_heavy': {
    en: 'This service takes packages of at most {max} grams.',
    'zh-Hans': '此服务的包裹重量不得超过 {max} 克。',
    'zh-Hant': '此服務的包裹重量不得超過 {max} 克。',
    fr: 'Ce service accepte des colis d’au plus {max} grammes.',
    de: 'Dieser Dienst nimmt Pakete von höchstens {max} Gramm an.',
    es: 'Este servicio admite paquetes de como máximo {max} gramos.',
  },
  'shipping_orders.price_hidden_settle_offline': {
    en: 'This order cannot be paid online: the business settles it with you offline.',
    'zh-Hans': '此订单无法在线支付：商家将与您线下结算。',
    'zh-Hant': '此訂單無法線上付款：商家將與您線下結算。',
    fr: 'Cette commande ne peut pas être payée en ligne : l’entreprise la règle avec vous hors ligne.',
    de: 'Dieser Auftrag kann nicht online bezahlt werden: Das Unternehmen rechnet ihn offline mit Ihnen ab.',
    es: 'Este pedido no se puede pagar en línea: la empresa lo liquida con usted fuera de línea.',
  },
  'shipping_orders.nothing_due': {
    en: 'Nothing is due on this order: it is paid.',
    'zh-Hans': '此订单无需再付款：已付清。',
    'zh-Hant': '此訂單無需再付款：已付清。',
    fr: 'Rien n’est dû sur cette commande : elle est payée.',
    de: 'Auf diesen Auftrag ist nichts fällig: Er ist bezahlt.',
    es: 'No se debe nada de este pedido: está pagado.',
  },
  'shipping_orders.closed': {
    en: 'Nothing is due on this order: it is cancelled or expired.',
    'zh-Hans': '此订单无需付款：已取消或已过期。',
    'zh-Hant': '此訂單無需付款：已取消或已過期。',
    fr: 'Rien n’est dû sur cette commande : elle est annulée ou expirée.',
    de: 'Auf diesen Auftrag ist nichts fällig: Er ist storniert oder abgelaufen.',
    es: 'No se debe nada de este pedido: está cancelado o caducado.',
  },
  'shipping_orders.not_cancellable': {
    en: 'This order can no longer be cancelled.',
    'zh-Hans': '此订单已无法取消。',
    'zh-Hant': '此訂單已無法取消。',
    fr: 'Cette commande ne peut plus être annulée.',
    de: 'Dieser Auftrag kann nicht mehr storniert werden.',
    es: 'Este pedido ya no se puede cancelar.',
  },
  'shipping_orders.delivery_not_cancellable': {
    en: 'This order can no longer be cancelled: its delivery could not be stopped ({reason}).',
    'zh-Hans': '此订单已无法取消：其配送无法停止（{reason}）。',
    'zh-Hant': '此訂單已無法取消：其配送無法停止（{reason}）。',
    fr: 'Cette commande ne peut plus être annulée : sa livraison n’a pas pu être arrêtée ({reason}).',
    de: 'Dieser Auftrag kann nicht mehr storniert werden: Seine Zustellung ließ sich nicht anhalten ({reason}).',
    es: 'Este pedido ya no se puede cancelar: su entrega no se pudo detener ({reason}).',
  },
  'shipping_orders.expired': {
    en: 'Nothing is due on this order: it expired before it was paid, and anything paid on it went back to your wallet.',
    'zh-Hans': '此订单无需付款：它在付清前已过期，已付款项已退回您的钱包。',
    'zh-Hant': '此訂單無需付款：它在付清前已過期，已付款項已退回您的錢包。',
    fr: 'Rien n’est dû sur cette commande : elle a expiré avant d’être payée, et tout montant payé est revenu dans votre portefeuille.',
    de: 'Auf diesen Auftrag ist nichts fällig: Er ist abgelaufen, bevor er bezahlt wurde, und jeder gezahlte Betrag ging an Ihre Geldbörse zurück.',
    es: 'No se debe nada de este pedido: caducó antes de pagarse, y lo pagado volvió a su monedero.',
  },
  'shipping_orders.key_reused': {
    en: 'This idempotency key created another shipping order (another service or another shipment).',
    'zh-Hans': '该幂等键已用于创建另一个运单（不同的服务或货件）。',
    'zh-Hant': '該冪等鍵已用於建立另一張運單（不同的服務或貨件）。',
    fr: 'Cette clé d’idempotence a créé une autre commande d’expédition (un autre service ou un autre envoi).',
    de: 'Dieser Idempotenzschlüssel hat einen anderen Versandauftrag angelegt (ein anderer Dienst oder eine andere Sendung).',
    es: 'Esta clave de idempotencia creó otro pedido de envío (otro servicio u otro envío).',
  },
  'shipping_orders.delivery_with_provider': {
    en: 'A delivery provider holds its delivery order.',
    'zh-Hans': '其配送订单已由配送服务商接管。',
    'zh-Hant': '其配送訂單已由配送服務商接管。',
    fr: 'Un prestataire de livraison détient sa commande de livraison.',
    de: 'Ein Zustelldienstleister hält seinen Zustellauftrag.',
    es: 'Un proveedor de entregas tiene su pedido de entrega.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof SHIPPING_ORDERS_MESSAGES, true> {}
}
