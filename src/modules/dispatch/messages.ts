import type { Messages } from '../../platform/i18n/messages.ts';
import type { DispatchCode } from './errorCodes.ts';
import type { NotAppliedReason } from './domain.ts';

export const DISPATCH_MESSAGES = {
  'dispatch.failure_reason_without_failed': {
    en: 'A failure reason goes with the step failed only.',
    'zh-Hans': '失败原因只能与 failed 步骤一起提交。',
    'zh-Hant': '失敗原因只能與 failed 步驟一起提交。',
    fr: 'Une raison d’échec ne va qu’avec l’étape failed.',
    de: 'Ein Fehlergrund gehört nur zum Schritt failed.',
    es: 'Un motivo de fallo solo acompaña al paso failed.',
  },
  'dispatch.not_dispatchable': {
    en: 'The order does not wait for dispatch (on hold, cancelled, delivered or already on its way).',
    'zh-Hans': '该订单不在待派送状态（已暂停、已取消、已送达或已在途）。',
    'zh-Hant': '該訂單不在待派送狀態（已暫停、已取消、已送達或已在途）。',
    fr: 'La commande n’attend pas de répartition (en attente, annulée, livrée ou déjà en route).',
    de: 'Der Auftrag wartet nicht auf die Disposition (angehalten, storniert, zugestellt oder bereits unterwegs).',
    es: 'El pedido no está pendiente de despacho (retenido, cancelado, entregado o ya en camino).',
  },
  'dispatch.provider_held': {
    en: 'A third-party delivery provider carries this order.',
    'zh-Hans': '该订单由第三方配送服务商承运。',
    'zh-Hant': '該訂單由第三方配送服務商承運。',
    fr: 'Un prestataire de livraison tiers transporte cette commande.',
    de: 'Ein externer Zustelldienst befördert diesen Auftrag.',
    es: 'Un proveedor de entrega externo transporta este pedido.',
  },
  'dispatch.contractor_held': {
    en: 'The order is assigned to a contractor.',
    'zh-Hans': '该订单已分配给承包商。',
    'zh-Hant': '該訂單已分配給承包商。',
    fr: 'La commande est attribuée à un sous-traitant.',
    de: 'Der Auftrag ist einem Subunternehmer zugewiesen.',
    es: 'El pedido está asignado a un contratista.',
  },
  'dispatch.stop_started': {
    en: "The order's stop is done or under way; it stays with its driver.",
    'zh-Hans': '该订单的站点已完成或正在进行，仍由原司机负责。',
    'zh-Hant': '該訂單的站點已完成或正在進行，仍由原司機負責。',
    fr: 'L’arrêt de la commande est terminé ou en cours ; elle reste à son chauffeur.',
    de: 'Der Halt des Auftrags ist erledigt oder läuft; er bleibt bei seinem Fahrer.',
    es: 'La parada del pedido está hecha o en curso; sigue con su conductor.',
  },
  'dispatch.driver_not_active': {
    en: 'The driver is not active.',
    'zh-Hans': '该司机未处于启用状态。',
    'zh-Hant': '該司機未處於啟用狀態。',
    fr: 'Le chauffeur n’est pas actif.',
    de: 'Der Fahrer ist nicht aktiv.',
    es: 'El conductor no está activo.',
  },
  'dispatch.not_assigned': {
    en: 'The order has no driver.',
    'zh-Hans': '该订单没有司机。',
    'zh-Hant': '該訂單沒有司機。',
    fr: 'La commande n’a pas de chauffeur.',
    de: 'Der Auftrag hat keinen Fahrer.',
    es: 'El pedido no tiene conductor.',
  },
  'dispatch.has_driver': {
    en: 'The order has a driver already; unassign it first.',
    'zh-Hans': '该订单已有司机；请先取消分配。',
    'zh-Hant': '該訂單已有司機；請先取消分配。',
    fr: 'La commande a déjà un chauffeur ; retirez-le d’abord.',
    de: 'Der Auftrag hat bereits einen Fahrer; heben Sie die Zuweisung zuerst auf.',
    es: 'El pedido ya tiene conductor; desasígnelo primero.',
  },
  'dispatch.auto_assign_running': {
    en: 'The order is being offered to drivers by auto-assign; wait for it to end.',
    'zh-Hans': '自动分配正在向司机派发该订单；请等待其结束。',
    'zh-Hant': '自動分配正在向司機派發該訂單；請等待其結束。',
    fr: 'L’attribution automatique propose la commande aux chauffeurs ; attendez qu’elle se termine.',
    de: 'Die automatische Zuweisung bietet den Auftrag gerade Fahrern an; warten Sie, bis sie endet.',
    es: 'La asignación automática está ofreciendo el pedido a conductores; espere a que termine.',
  },
  'dispatch.offer_not_yours': {
    en: 'This order is offered to another driver.',
    'zh-Hans': '该订单已派发给其他司机。',
    'zh-Hant': '該訂單已派發給其他司機。',
    fr: 'Cette commande est proposée à un autre chauffeur.',
    de: 'Dieser Auftrag wird einem anderen Fahrer angeboten.',
    es: 'Este pedido se ofrece a otro conductor.',
  },
  'dispatch.offer_expired': {
    en: 'No offer of this order is open: its deadline passed or it was answered.',
    'zh-Hans': '该订单没有待答复的派单：已超过期限或已答复。',
    'zh-Hant': '該訂單沒有待答覆的派單：已超過期限或已答覆。',
    fr: 'Aucune offre de cette commande n’est ouverte : son délai est passé ou elle a reçu une réponse.',
    de: 'Für diesen Auftrag ist kein Angebot offen: Die Frist ist abgelaufen oder es wurde beantwortet.',
    es: 'No hay ninguna oferta abierta de este pedido: venció su plazo o ya se respondió.',
  },
  'dispatch.report.not_on_route': {
    en: 'The order is not on your route.',
    'zh-Hans': '该订单不在您的路线上。',
    'zh-Hant': '該訂單不在您的路線上。',
    fr: 'La commande n’est pas sur votre tournée.',
    de: 'Der Auftrag ist nicht auf Ihrer Tour.',
    es: 'El pedido no está en su ruta.',
  },
  'dispatch.report.offer_open': {
    en: 'Accept the offer of this order before reporting on it.',
    'zh-Hans': '请先接受该订单的派单，再上报进度。',
    'zh-Hant': '請先接受該訂單的派單，再回報進度。',
    fr: 'Acceptez d’abord l’offre de cette commande avant d’en signaler l’avancement.',
    de: 'Nehmen Sie zuerst das Angebot dieses Auftrags an, bevor Sie dazu melden.',
    es: 'Acepte primero la oferta de este pedido antes de informar sobre él.',
  },
  'dispatch.report.repeated': {
    en: 'This step was reported already; nothing changed.',
    'zh-Hans': '该步骤已上报过；未作任何更改。',
    'zh-Hant': '該步驟已回報過；未作任何變更。',
    fr: 'Cette étape a déjà été signalée ; rien n’a changé.',
    de: 'Dieser Schritt wurde bereits gemeldet; nichts wurde geändert.',
    es: 'Este paso ya se informó; no cambió nada.',
  },
  'dispatch.report.backwards': {
    en: 'The order is past this step already; nothing changed.',
    'zh-Hans': '该订单已超过此步骤；未作任何更改。',
    'zh-Hant': '該訂單已超過此步驟；未作任何變更。',
    fr: 'La commande a déjà dépassé cette étape ; rien n’a changé.',
    de: 'Der Auftrag ist bereits über diesen Schritt hinaus; nichts wurde geändert.',
    es: 'El pedido ya pasó este paso; no cambió nada.',
  },
  'dispatch.report.stop_finished': {
    en: "The order's stop is finished already; nothing changed.",
    'zh-Hans': '该订单的站点已结束；未作任何更改。',
    'zh-Hant': '該訂單的站點已結束；未作任何變更。',
    fr: 'L’arrêt de la commande est déjà terminé ; rien n’a changé.',
    de: 'Der Halt des Auftrags ist bereits abgeschlossen; nichts wurde geändert.',
    es: 'La parada del pedido ya terminó; no cambió nada.',
  },
  'dispatch.report.pickup_pending': {
    en: 'Report the pickup of this order first; nothing changed.',
    'zh-Hans': '请先上报该订单的取件；未作任何更改。',
    'zh-Hant': '請先回報該訂單的取件；未作任何變更。',
    fr: 'Signalez d’abord l’enlèvement de cette commande ; rien n’a changé.',
    de: 'Melden Sie zuerst die Abholung dieses Auftrags; nichts wurde geändert.',
    es: 'Informe primero la recogida de este pedido; no cambió nada.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DISPATCH_MESSAGES, true> {}
}

export type DispatchMessageKey = keyof typeof DISPATCH_MESSAGES;

/** The message of each refusal code. */
export const CODE_MESSAGE: Record<DispatchCode, DispatchMessageKey> = {
  ORDER_NOT_DISPATCHABLE: 'dispatch.not_dispatchable',
  ORDER_PROVIDER_HELD: 'dispatch.provider_held',
  ORDER_CONTRACTOR_HELD: 'dispatch.contractor_held',
  ORDER_STOP_STARTED: 'dispatch.stop_started',
  DRIVER_NOT_ACTIVE: 'dispatch.driver_not_active',
  ORDER_NOT_ASSIGNED: 'dispatch.not_assigned',
  ORDER_HAS_DRIVER: 'dispatch.has_driver',
  AUTO_ASSIGN_RUNNING: 'dispatch.auto_assign_running',
  OFFER_NOT_YOURS: 'dispatch.offer_not_yours',
  OFFER_EXPIRED: 'dispatch.offer_expired',
};

/** Why a report was not applied, in words. */
export const NOT_APPLIED_MESSAGE: Record<NotAppliedReason, DispatchMessageKey> = {
  not_on_route: 'dispatch.report.not_on_route',
  offer_open: 'dispatch.report.offer_open',
  repeated: 'dispatch.report.repeated',
  backwards: 'dispatch.report.backwards',
  stop_finished: 'dispatch.report.stop_finished',
  pickup_pending: 'dispatch.report.pickup_pending',
};
