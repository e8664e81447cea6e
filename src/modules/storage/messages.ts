import type { Messages } from '../../platform/i18n/messages.ts';

export const STORAGE_MESSAGES = {
  'storage.unknown_service': {
    en: 'No active storage service has this code.',
    'zh-Hans': '没有使用此代码的有效仓储服务。',
    'zh-Hant': '沒有使用此代碼的有效倉儲服務。',
    fr: 'Aucun service de stockage actif n’a ce code.',
    de: 'Kein aktiver Lagerdienst hat diesen Code.',
    es: 'Ningún servicio de almacenaje activo tiene este código.',
  },
  'storage.warehouse_closed': {
    en: 'The warehouse of this storage service takes no new storage orders.',
    'zh-Hans': '此仓储服务的仓库不接受新的仓储订单。',
    'zh-Hant': '此倉儲服務的倉庫不接受新的倉儲訂單。',
    fr: 'L’entrepôt de ce service de stockage ne prend plus de nouvelles commandes.',
    de: 'Das Lager dieses Lagerdienstes nimmt keine neuen Lageraufträge an.',
    es: 'El almacén de este servicio no acepta nuevos pedidos de almacenaje.',
  },
  'storage.nothing_due': {
    en: 'Nothing is due on this storage order: it is paid, cancelled or expired.',
    'zh-Hans': '此仓储订单无应付款项：已支付、已取消或已过期。',
    'zh-Hant': '此倉儲訂單無應付款項：已支付、已取消或已過期。',
    fr: 'Rien n’est dû sur cette commande de stockage : elle est payée, annulée ou expirée.',
    de: 'Auf diesen Lagerauftrag ist nichts fällig: Er ist bezahlt, storniert oder abgelaufen.',
    es: 'No hay nada pendiente en este pedido de almacenaje: está pagado, cancelado o vencido.',
  },
  'storage.price_hidden': {
    en: 'The business settles the prices of its storage services with you offline: this order cannot be paid here.',
    'zh-Hans': '企业与您线下结算仓储服务费用：此订单无法在此支付。',
    'zh-Hant': '企業與您線下結算倉儲服務費用：此訂單無法在此支付。',
    fr: 'L’entreprise règle avec vous les prix de ses services de stockage hors ligne : cette commande ne peut pas être payée ici.',
    de: 'Das Unternehmen rechnet die Preise seiner Lagerdienste offline mit Ihnen ab: Dieser Auftrag kann hier nicht bezahlt werden.',
    es: 'La empresa liquida con usted los precios de sus servicios de almacenaje fuera de línea: este pedido no se puede pagar aquí.',
  },
  'storage.key_reused': {
    en: 'This idempotency key created another storage order (another service, other packages, reference or arrival).',
    'zh-Hans': '此幂等键已创建了另一仓储订单（服务、包裹、参考号或到达日期不同）。',
    'zh-Hant': '此冪等鍵已建立了另一倉儲訂單（服務、包裹、參考號或到達日期不同）。',
    fr: 'Cette clé d’idempotence a créé une autre commande de stockage (autre service, autres colis, référence ou arrivée).',
    de: 'Dieser Idempotenzschlüssel hat einen anderen Lagerauftrag erzeugt (anderer Dienst, andere Pakete, Referenz oder Ankunft).',
    es: 'Esta clave de idempotencia creó otro pedido de almacenaje (otro servicio, otros paquetes, referencia o llegada).',
  },
  'storage.not_cancellable': {
    en: 'This storage order cannot be cancelled: it is cancelled or expired, or the warehouse has received a package of it.',
    'zh-Hans': '此仓储订单无法取消：已取消或已过期，或仓库已收到其包裹。',
    'zh-Hant': '此倉儲訂單無法取消：已取消或已過期，或倉庫已收到其包裹。',
    fr: 'Cette commande de stockage ne peut pas être annulée : elle est annulée ou expirée, ou l’entrepôt a reçu l’un de ses colis.',
    de: 'Dieser Lagerauftrag kann nicht storniert werden: Er ist storniert oder abgelaufen, oder das Lager hat ein Paket davon angenommen.',
    es: 'Este pedido de almacenaje no se puede cancelar: está cancelado o vencido, o el almacén ya recibió uno de sus paquetes.',
  },
  'storage.amount_decimals': {
    en: 'An amount with at most {decimals} decimals.',
    'zh-Hans': '金额最多 {decimals} 位小数。',
    'zh-Hant': '金額最多 {decimals} 位小數。',
    fr: 'Un montant d’au plus {decimals} décimales.',
    de: 'Ein Betrag mit höchstens {decimals} Nachkommastellen.',
    es: 'Un importe con {decimals} decimales como máximo.',
  },
  'storage.amount_not_positive': {
    en: 'The amount must be more than 0.',
    'zh-Hans': '金额必须大于 0。',
    'zh-Hant': '金額必須大於 0。',
    fr: 'Le montant doit être supérieur à 0.',
    de: 'Der Betrag muss größer als 0 sein.',
    es: 'El importe debe ser mayor que 0.',
  },
  'storage.amount_over_due': {
    en: 'The amount is more than the balance due.',
    'zh-Hans': '金额超过应付余额。',
    'zh-Hant': '金額超過應付餘額。',
    fr: 'Le montant dépasse le solde dû.',
    de: 'Der Betrag ist höher als der fällige Restbetrag.',
    es: 'El importe supera el saldo pendiente.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof STORAGE_MESSAGES, true> {}
}
