import type { Messages } from '../../platform/i18n/messages.ts';

export const THIRD_PARTY_MESSAGES = {
  'field.not_a_delivery_provider': {
    en: 'No delivery provider has this code.',
    'zh-Hans': '没有配送服务商使用此代码。',
    'zh-Hant': '沒有配送服務商使用此代碼。',
    fr: "Aucun prestataire de livraison n'a ce code.",
    de: 'Kein Zustelldienstleister hat diesen Code.',
    es: 'Ningún proveedor de entregas tiene este código.',
  },
  'field.not_a_package_of_order': {
    en: "This package is not one of the order's.",
    'zh-Hans': '此包裹不属于该订单。',
    'zh-Hant': '此包裹不屬於該訂單。',
    fr: "Ce colis n'appartient pas à la commande.",
    de: 'Dieses Paket gehört nicht zum Auftrag.',
    es: 'Este paquete no pertenece al pedido.',
  },
  'third_party.order_with_contractor': {
    en: 'The order is assigned to a contractor; revoke that assignment first.',
    'zh-Hans': '该订单已分配给承包商；请先撤销该分配。',
    'zh-Hant': '該訂單已分配給承包商；請先撤銷該分配。',
    fr: "La commande est attribuée à un sous-traitant ; révoquez d'abord cette attribution.",
    de: 'Der Auftrag ist einem Auftragnehmer zugewiesen; widerrufen Sie zuerst diese Zuweisung.',
    es: 'El pedido está asignado a un contratista; revoque primero esa asignación.',
  },
  'third_party.invalid_step': {
    en: 'The assignment is {status}: this step is not possible now.',
    'zh-Hans': '该分配的状态为 {status}：现在无法执行此步骤。',
    'zh-Hant': '該分配的狀態為 {status}：現在無法執行此步驟。',
    fr: "L'attribution est {status} : cette étape n'est pas possible maintenant.",
    de: 'Die Zuweisung ist {status}: Dieser Schritt ist jetzt nicht möglich.',
    es: 'La asignación está {status}: este paso no es posible ahora.',
  },
  'third_party.leg_exists': {
    en: 'The assignment already has a leg with this carrier order number.',
    'zh-Hans': '该分配已有使用此承运商订单号的运段。',
    'zh-Hant': '該分配已有使用此承運商訂單號的運段。',
    fr: "L'attribution a déjà un tronçon avec ce numéro de commande transporteur.",
    de: 'Die Zuweisung hat bereits eine Teilstrecke mit dieser Frachtführer-Auftragsnummer.',
    es: 'La asignación ya tiene un tramo con este número de pedido del transportista.',
  },
  'third_party.package_on_leg': {
    en: 'A package is already on another leg of the assignment.',
    'zh-Hans': '某个包裹已在该分配的另一运段上。',
    'zh-Hant': '某個包裹已在該分配的另一運段上。',
    fr: "Un colis est déjà sur un autre tronçon de l'attribution.",
    de: 'Ein Paket ist bereits auf einer anderen Teilstrecke der Zuweisung.',
    es: 'Un paquete ya está en otro tramo de la asignación.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof THIRD_PARTY_MESSAGES, true> {}
}
