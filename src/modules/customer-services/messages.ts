import type { Messages } from '../../platform/i18n/messages.ts';

export const CUSTOMER_SERVICES_MESSAGES = {
  'customer_services.code_taken': {
    en: 'The business has a service of this kind with this code already.',
    'zh-Hans': '企业已有使用此代码的同类服务。',
    'zh-Hant': '企業已有使用此代碼的同類服務。',
    fr: 'L’entreprise a déjà un service de ce type avec ce code.',
    de: 'Das Unternehmen hat bereits einen Dienst dieser Art mit diesem Code.',
    es: 'La empresa ya tiene un servicio de este tipo con este código.',
  },
  'customer_services.unknown_warehouse': {
    en: 'The business has no warehouse with this id.',
    'zh-Hans': '企业没有此编号的仓库。',
    'zh-Hant': '企業沒有此編號的倉庫。',
    fr: 'L’entreprise n’a pas d’entrepôt avec cet identifiant.',
    de: 'Das Unternehmen hat kein Lager mit dieser Kennung.',
    es: 'La empresa no tiene un almacén con este identificador.',
  },
  'customer_services.unknown_carrier': {
    en: 'Not a carrier code: use one of {codes}.',
    'zh-Hans': '不是承运商代码：请使用 {codes} 之一。',
    'zh-Hant': '不是承運商代碼：請使用 {codes} 之一。',
    fr: 'Ce n’est pas un code de transporteur : utilisez l’un de {codes}.',
    de: 'Kein Spediteurscode: Verwenden Sie einen von {codes}.',
    es: 'No es un código de transportista: use uno de {codes}.',
  },
  'customer_services.unknown_carrier_service': {
    en: 'Not a service of this carrier: use one of {codes}.',
    'zh-Hans': '不是该承运商的服务：请使用 {codes} 之一。',
    'zh-Hant': '不是該承運商的服務：請使用 {codes} 之一。',
    fr: 'Ce n’est pas un service de ce transporteur : utilisez l’un de {codes}.',
    de: 'Kein Dienst dieses Spediteurs: Verwenden Sie einen von {codes}.',
    es: 'No es un servicio de este transportista: use uno de {codes}.',
  },
  'customer_services.pricing_required': {
    en: 'A ship-out service priced at once (pricing_method 1) needs its pricing.',
    'zh-Hans': '即时定价的出库服务（pricing_method 1）需要定价。',
    'zh-Hant': '即時定價的出庫服務（pricing_method 1）需要定價。',
    fr: 'Un service d’expédition tarifé immédiatement (pricing_method 1) a besoin de sa tarification.',
    de: 'Ein sofort bepreister Versanddienst (pricing_method 1) braucht seine Preise.',
    es: 'Un servicio de salida con precio inmediato (pricing_method 1) necesita su tarificación.',
  },
  'customer_services.tax_rate_range': {
    en: 'A tax rate is a percent from 0 to 100.',
    'zh-Hans': '税率是 0 到 100 之间的百分比。',
    'zh-Hant': '稅率是 0 到 100 之間的百分比。',
    fr: 'Un taux de taxe est un pourcentage de 0 à 100.',
    de: 'Ein Steuersatz ist ein Prozentsatz von 0 bis 100.',
    es: 'Una tasa de impuesto es un porcentaje de 0 a 100.',
  },
  'customer_services.unknown_currency': {
    en: 'Not an ISO 4217 currency code this service prices in.',
    'zh-Hans': '不是本服务可用于定价的 ISO 4217 货币代码。',
    'zh-Hant': '不是本服務可用於定價的 ISO 4217 貨幣代碼。',
    fr: 'Ce n’est pas un code de devise ISO 4217 dans lequel ce service établit des prix.',
    de: 'Kein ISO-4217-Währungscode, in dem dieser Dienst Preise bildet.',
    es: 'No es un código de moneda ISO 4217 en el que este servicio fije precios.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof CUSTOMER_SERVICES_MESSAGES, true> {}
}
