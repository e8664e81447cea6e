import type { Messages } from '../../platform/i18n/messages.ts';

export const UNIORDER_MESSAGES = {
  'uniorder.past_ship_date': {
    en: 'The ship date is in the past.',
    'zh-Hans': '发货日期已过。',
    'zh-Hant': '出貨日期已過。',
    fr: 'La date d’expédition est passée.',
    de: 'Das Versanddatum liegt in der Vergangenheit.',
    es: 'La fecha de envío ya pasó.',
  },
  'uniorder.price_model_missing': {
    en: 'No rate can come: the business has no local delivery price model, and label rates were not asked for (quote_labels).',
    'zh-Hans': '无法报价：企业没有本地配送价格模型，且未请求面单报价（quote_labels）。',
    'zh-Hant': '無法報價：企業沒有本地配送價格模型，且未請求面單報價（quote_labels）。',
    fr: 'Aucun tarif possible : l’entreprise n’a pas de modèle de prix de livraison locale et les tarifs d’étiquettes n’ont pas été demandés (quote_labels).',
    de: 'Kein Tarif möglich: Das Unternehmen hat kein Preismodell für lokale Zustellung, und Etikettentarife wurden nicht angefragt (quote_labels).',
    es: 'No puede haber tarifa: la empresa no tiene modelo de precios de entrega local y no se pidieron tarifas de etiquetas (quote_labels).',
  },
  'uniorder.not_label_shippable': {
    en: 'A collection (type P) has no carrier label rates.',
    'zh-Hans': '取件订单（类型 P）没有承运商面单报价。',
    'zh-Hant': '取件訂單（類型 P）沒有承運商面單報價。',
    fr: 'Une collecte (type P) n’a pas de tarifs d’étiquettes de transporteur.',
    de: 'Eine Abholung (Typ P) hat keine Etikettentarife von Spediteuren.',
    es: 'Una recogida (tipo P) no tiene tarifas de etiquetas de transportista.',
  },
  'uniorder.unknown_rate': {
    en: 'No rate of yours has this id.',
    'zh-Hans': '您没有此编号的报价。',
    'zh-Hant': '您沒有此編號的報價。',
    fr: 'Aucun de vos tarifs n’a cet identifiant.',
    de: 'Kein Tarif von Ihnen hat diese Kennung.',
    es: 'Ninguna tarifa suya tiene este identificador.',
  },
  'uniorder.rate_expired': {
    en: 'This rate has expired: ask for rates again.',
    'zh-Hans': '该报价已过期：请重新获取报价。',
    'zh-Hant': '該報價已過期：請重新取得報價。',
    fr: 'Ce tarif a expiré : demandez de nouveaux tarifs.',
    de: 'Dieser Tarif ist abgelaufen: Fragen Sie erneut nach Tarifen.',
    es: 'Esta tarifa ha caducado: pida tarifas de nuevo.',
  },
  'uniorder.rate_already_used': {
    en: 'This rate has created an order already (order_id).',
    'zh-Hans': '该报价已创建过订单（order_id）。',
    'zh-Hant': '該報價已建立過訂單（order_id）。',
    fr: 'Ce tarif a déjà créé une commande (order_id).',
    de: 'Mit diesem Tarif wurde bereits ein Auftrag erstellt (order_id).',
    es: 'Esta tarifa ya creó un pedido (order_id).',
  },
  'uniorder.idempotency_key_reused': {
    en: 'This idempotency key named another creation (another rate_id).',
    'zh-Hans': '该幂等键已用于另一次创建（另一个 rate_id）。',
    'zh-Hant': '該冪等鍵已用於另一次建立（另一個 rate_id）。',
    fr: 'Cette clé d’idempotence a servi à une autre création (un autre rate_id).',
    de: 'Dieser Idempotenzschlüssel gehört zu einer anderen Erstellung (anderer rate_id).',
    es: 'Esta clave de idempotencia nombró otra creación (otro rate_id).',
  },
  'uniorder.purchase_failed': {
    en: 'The carrier did not sell the label: the order is kept as LABEL_PURCHASE_FAILED, and its label can be bought later (uniorder_purchase_label).',
    'zh-Hans': '承运商未能出售面单：订单保留为 LABEL_PURCHASE_FAILED，稍后可再次购买面单（uniorder_purchase_label）。',
    'zh-Hant': '承運商未能出售面單：訂單保留為 LABEL_PURCHASE_FAILED，稍後可再次購買面單（uniorder_purchase_label）。',
    fr: 'Le transporteur n’a pas vendu l’étiquette : la commande est gardée en LABEL_PURCHASE_FAILED et son étiquette pourra être achetée plus tard (uniorder_purchase_label).',
    de: 'Der Spediteur hat das Etikett nicht verkauft: Der Auftrag bleibt als LABEL_PURCHASE_FAILED erhalten, sein Etikett kann später gekauft werden (uniorder_purchase_label).',
    es: 'El transportista no vendió la etiqueta: el pedido se guarda como LABEL_PURCHASE_FAILED y su etiqueta puede comprarse más tarde (uniorder_purchase_label).',
  },
  'uniorder.purchase_in_progress': {
    en: 'The label purchase is still with the carrier: ask again in a moment.',
    'zh-Hans': '面单购买仍在承运商处处理：请稍后再试。',
    'zh-Hant': '面單購買仍在承運商處處理：請稍後再試。',
    fr: 'L’achat de l’étiquette est encore chez le transporteur : réessayez dans un instant.',
    de: 'Der Etikettenkauf läuft noch beim Spediteur: Fragen Sie gleich noch einmal.',
    es: 'La compra de la etiqueta sigue con el transportista: vuelva a preguntar en un momento.',
  },
  'uniorder.job_creator_gone': {
    en: 'The account that made this job is gone or has left the business: the item was not run.',
    'zh-Hans': '创建此任务的账户已不存在或已离开企业：该项未执行。',
    'zh-Hant': '建立此任務的帳戶已不存在或已離開企業：該項未執行。',
    fr: 'Le compte qui a créé cette tâche n’existe plus ou a quitté l’entreprise : l’élément n’a pas été traité.',
    de: 'Das Konto, das diesen Auftrag angelegt hat, gibt es nicht mehr oder es hat das Unternehmen verlassen: Der Eintrag wurde nicht ausgeführt.',
    es: 'La cuenta que creó este trabajo ya no existe o dejó la empresa: el elemento no se ejecutó.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof UNIORDER_MESSAGES, true> {}
}
