import type { Messages } from '../../platform/i18n/messages.ts';

export const ASSIGNMENTS_MESSAGES = {
  'field.unknown_ids': {
    en: 'Unknown ids: {ids}.',
    'zh-Hans': '未知的 ID：{ids}。',
    'zh-Hant': '未知的 ID：{ids}。',
    fr: 'Identifiants inconnus : {ids}.',
    de: 'Unbekannte IDs: {ids}.',
    es: 'Identificadores desconocidos: {ids}.',
  },
  'field.not_a_contractor': {
    en: 'No contractor of your business has this id.',
    'zh-Hans': '贵公司没有此 ID 的承包商。',
    'zh-Hant': '貴公司沒有此 ID 的承包商。',
    fr: "Aucun sous-traitant de votre entreprise n'a cet identifiant.",
    de: 'Kein Auftragnehmer Ihres Unternehmens hat diese ID.',
    es: 'Ningún contratista de su empresa tiene este identificador.',
  },
  'assignment.module_disabled': {
    en: 'The contractor order assignment module is not enabled for your account.',
    'zh-Hans': '您的账户未启用承包商订单分配模块。',
    'zh-Hant': '您的帳戶未啟用承包商訂單指派模組。',
    fr: "Le module d'attribution de commandes aux sous-traitants n'est pas activé pour votre compte.",
    de: 'Das Modul für Auftragszuweisungen an Auftragnehmer ist für Ihr Konto nicht aktiviert.',
    es: 'El módulo de asignación de pedidos a contratistas no está habilitado para su cuenta.',
  },
  'assignment.module_unavailable': {
    en: 'Contractor order assignment is not yet available on this system.',
    'zh-Hans': '本系统尚未提供承包商订单分配功能。',
    'zh-Hant': '本系統尚未提供承包商訂單指派功能。',
    fr: "L'attribution de commandes aux sous-traitants n'est pas encore disponible sur ce système.",
    de: 'Auftragszuweisungen an Auftragnehmer sind auf diesem System noch nicht verfügbar.',
    es: 'La asignación de pedidos a contratistas aún no está disponible en este sistema.',
  },
  'assignment.on_route': {
    en: 'The order is already on a route.',
    'zh-Hans': '该订单已在路线上。',
    'zh-Hant': '該訂單已在路線上。',
    fr: 'La commande est déjà sur une tournée.',
    de: 'Der Auftrag ist bereits auf einer Route.',
    es: 'El pedido ya está en una ruta.',
  },
  'assignment.not_self_delivery': {
    en: 'The order is not a self-delivery order.',
    'zh-Hans': '该订单不是自配送订单。',
    'zh-Hant': '該訂單不是自行配送訂單。',
    fr: "La commande n'est pas une commande livrée par vos soins.",
    de: 'Der Auftrag ist kein Eigenzustellungsauftrag.',
    es: 'El pedido no es de entrega propia.',
  },
  'assignment.not_assignable_status': {
    en: 'The order is not in an assignable status.',
    'zh-Hans': '该订单不处于可分配状态。',
    'zh-Hant': '該訂單不處於可指派狀態。',
    fr: "La commande n'est pas dans un statut attribuable.",
    de: 'Der Auftrag hat keinen zuweisbaren Status.',
    es: 'El pedido no está en un estado asignable.',
  },
  'assignment.carrier_held': {
    en: 'The order is held by a third-party carrier.',
    'zh-Hans': '该订单由第三方承运商持有。',
    'zh-Hant': '該訂單由第三方承運商持有。',
    fr: 'La commande est détenue par un transporteur tiers.',
    de: 'Der Auftrag liegt bei einem Drittanbieter-Spediteur.',
    es: 'El pedido está en manos de un transportista externo.',
  },
  'assignment.already_assigned': {
    en: 'The order is already assigned to this contractor.',
    'zh-Hans': '该订单已分配给此承包商。',
    'zh-Hant': '該訂單已指派給此承包商。',
    fr: 'La commande est déjà attribuée à ce sous-traitant.',
    de: 'Der Auftrag ist diesem Auftragnehmer bereits zugewiesen.',
    es: 'El pedido ya está asignado a este contratista.',
  },
  'assignment.not_active': {
    en: 'The order has no active contractor assignment.',
    'zh-Hans': '该订单没有有效的承包商分配。',
    'zh-Hant': '該訂單沒有有效的承包商指派。',
    fr: "La commande n'a pas d'attribution active à un sous-traitant.",
    de: 'Der Auftrag hat keine aktive Auftragnehmer-Zuweisung.',
    es: 'El pedido no tiene una asignación activa a un contratista.',
  },
  'assignment.not_yours': {
    en: 'The order is not assigned to you.',
    'zh-Hans': '该订单未分配给您。',
    'zh-Hant': '該訂單未指派給您。',
    fr: 'La commande ne vous est pas attribuée.',
    de: 'Der Auftrag ist Ihnen nicht zugewiesen.',
    es: 'El pedido no está asignado a usted.',
  },
  'assignment.released': {
    en: 'The assignment has been released.',
    'zh-Hans': '已释放该分配。',
    'zh-Hant': '已釋出該指派。',
    fr: "L'attribution a été libérée.",
    de: 'Die Zuweisung wurde freigegeben.',
    es: 'La asignación se ha liberado.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof ASSIGNMENTS_MESSAGES, true> {}
}
