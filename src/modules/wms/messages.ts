import type { Messages } from '../../platform/i18n/messages.ts';

export const WMS_MESSAGES = {
  'wms.warehouse_code_taken': {
    en: 'The business has a warehouse with this code already.',
    'zh-Hans': '企业已有使用此代码的仓库。',
    'zh-Hant': '企業已有使用此代碼的倉庫。',
    fr: 'L’entreprise a déjà un entrepôt avec ce code.',
    de: 'Das Unternehmen hat bereits ein Lager mit diesem Code.',
    es: 'La empresa ya tiene un almacén con este código.',
  },
  'wms.wrong_warehouse': {
    en: 'This package is expected at warehouse {code}, not at this one.',
    'zh-Hans': '此包裹应送达仓库 {code}，而不是此仓库。',
    'zh-Hant': '此包裹應送達倉庫 {code}，而不是此倉庫。',
    fr: 'Ce colis est attendu à l’entrepôt {code}, pas à celui-ci.',
    de: 'Dieses Paket wird im Lager {code} erwartet, nicht in diesem.',
    es: 'Este paquete se espera en el almacén {code}, no en este.',
  },
  'wms.not_receivable_unpaid': {
    en: 'This package cannot be received: its storage order is not paid (unpaid, cancelled or expired).',
    'zh-Hans': '无法接收此包裹：其仓储订单未支付（未付款、已取消或已过期）。',
    'zh-Hant': '無法接收此包裹：其倉儲訂單未支付（未付款、已取消或已過期）。',
    fr: 'Ce colis ne peut pas être réceptionné : sa commande de stockage n’est pas payée (impayée, annulée ou expirée).',
    de: 'Dieses Paket kann nicht angenommen werden: Sein Lagerauftrag ist nicht bezahlt (unbezahlt, storniert oder abgelaufen).',
    es: 'Este paquete no se puede recibir: su pedido de almacenaje no está pagado (sin pagar, cancelado o vencido).',
  },
  'wms.not_receivable_released': {
    en: 'This package cannot be received: it was released (its storage order was cancelled or expired).',
    'zh-Hans': '无法接收此包裹：它已被释放（其仓储订单已取消或已过期）。',
    'zh-Hant': '無法接收此包裹：它已被釋放（其倉儲訂單已取消或已過期）。',
    fr: 'Ce colis ne peut pas être réceptionné : il a été libéré (sa commande de stockage a été annulée ou a expiré).',
    de: 'Dieses Paket kann nicht angenommen werden: Es wurde freigegeben (sein Lagerauftrag wurde storniert oder ist abgelaufen).',
    es: 'Este paquete no se puede recibir: fue liberado (su pedido de almacenaje se canceló o venció).',
  },
  'wms.not_receivable_shipped': {
    en: 'This package cannot be received: it was shipped out of the warehouse.',
    'zh-Hans': '无法接收此包裹：它已从仓库发出。',
    'zh-Hant': '無法接收此包裹：它已從倉庫發出。',
    fr: 'Ce colis ne peut pas être réceptionné : il a été expédié hors de l’entrepôt.',
    de: 'Dieses Paket kann nicht angenommen werden: Es wurde aus dem Lager versandt.',
    es: 'Este paquete no se puede recibir: ya salió del almacén.',
  },
  'wms.package_not_yours': {
    en: 'Package {id} is not one of your stored packages.',
    'zh-Hans': '包裹 {id} 不是您的仓储包裹。',
    'zh-Hant': '包裹 {id} 不是您的倉儲包裹。',
    fr: 'Le colis {id} ne fait pas partie de vos colis stockés.',
    de: 'Paket {id} gehört nicht zu Ihren eingelagerten Paketen.',
    es: 'El paquete {id} no es uno de sus paquetes almacenados.',
  },
  'wms.package_not_stored': {
    en: 'Package {id} is not in storage (not received yet, shipped or released).',
    'zh-Hans': '包裹 {id} 不在仓储中（尚未接收、已发出或已释放）。',
    'zh-Hant': '包裹 {id} 不在倉儲中（尚未接收、已發出或已釋放）。',
    fr: 'Le colis {id} n’est pas en stock (pas encore réceptionné, expédié ou libéré).',
    de: 'Paket {id} ist nicht eingelagert (noch nicht angenommen, versandt oder freigegeben).',
    es: 'El paquete {id} no está almacenado (aún no recibido, enviado o liberado).',
  },
  'wms.package_reserved': {
    en: 'Package {id} is in another ship-out already.',
    'zh-Hans': '包裹 {id} 已在另一个出库单中。',
    'zh-Hant': '包裹 {id} 已在另一個出庫單中。',
    fr: 'Le colis {id} fait déjà partie d’une autre expédition.',
    de: 'Paket {id} ist bereits in einem anderen Versandauftrag.',
    es: 'El paquete {id} ya está en otro envío de salida.',
  },
  'wms.package_other_warehouse': {
    en: 'Package {id} is stored in another warehouse: one ship-out leaves one warehouse.',
    'zh-Hans': '包裹 {id} 存放在另一个仓库：一个出库单只能从一个仓库发出。',
    'zh-Hant': '包裹 {id} 存放在另一個倉庫：一個出庫單只能從一個倉庫發出。',
    fr: 'Le colis {id} est stocké dans un autre entrepôt : une expédition part d’un seul entrepôt.',
    de: 'Paket {id} liegt in einem anderen Lager: Ein Versandauftrag verlässt ein einziges Lager.',
    es: 'El paquete {id} está en otro almacén: un envío de salida parte de un solo almacén.',
  },
  'wms.unknown_warehouse': {
    en: 'The business has no such warehouse.',
    'zh-Hans': '企业没有此仓库。',
    'zh-Hant': '企業沒有此倉庫。',
    fr: 'L’entreprise n’a pas cet entrepôt.',
    de: 'Das Unternehmen hat dieses Lager nicht.',
    es: 'La empresa no tiene este almacén.',
  },
  'wms.unknown_timezone': {
    en: 'Not an IANA time zone (such as Europe/Prague).',
    'zh-Hans': '不是 IANA 时区（例如 Europe/Prague）。',
    'zh-Hant': '不是 IANA 時區（例如 Europe/Prague）。',
    fr: 'Ce n’est pas un fuseau horaire IANA (comme Europe/Prague).',
    de: 'Keine IANA-Zeitzone (etwa Europe/Prague).',
    es: 'No es una zona horaria IANA (como Europe/Prague).',
  },
  'wms.age_range': {
    en: 'min_age_days must not be above max_age_days.',
    'zh-Hans': 'min_age_days 不能大于 max_age_days。',
    'zh-Hant': 'min_age_days 不能大於 max_age_days。',
    fr: 'min_age_days ne doit pas dépasser max_age_days.',
    de: 'min_age_days darf nicht größer als max_age_days sein.',
    es: 'min_age_days no debe ser mayor que max_age_days.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof WMS_MESSAGES, true> {}
}
