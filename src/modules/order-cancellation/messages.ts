import type { Messages } from '../../platform/i18n/messages.ts';
import type { CancelRefusalCode } from './domain.ts';

export const ORDER_CANCELLATION_MESSAGES = {
  'order_cancellation.gone_out': {
    en: 'The order has gone out and can no longer be cancelled; request an interception instead.',
    'zh-Hans': '订单已发出，无法再取消；请改为申请拦截。',
    'zh-Hant': '訂單已發出，無法再取消；請改為申請攔截。',
    fr: 'La commande est partie et ne peut plus être annulée ; demandez plutôt une interception.',
    de: 'Der Auftrag ist unterwegs und kann nicht mehr storniert werden; beantragen Sie stattdessen ein Abfangen.',
    es: 'El pedido ya ha salido y no se puede cancelar; solicite una intercepción.',
  },
  'order_cancellation.finished': {
    en: 'The order was delivered, refused by its recipient or returned to its sender: there is nothing left to cancel.',
    'zh-Hans': '订单已送达、被收件人拒收或已退回寄件人：没有可取消的内容。',
    'zh-Hant': '訂單已送達、被收件人拒收或已退回寄件人：沒有可取消的內容。',
    fr: 'La commande a été livrée, refusée par son destinataire ou retournée à son expéditeur : il ne reste rien à annuler.',
    de: 'Der Auftrag wurde zugestellt, vom Empfänger abgelehnt oder an den Absender zurückgesandt: Es gibt nichts mehr zu stornieren.',
    es: 'El pedido fue entregado, rechazado por su destinatario o devuelto a su remitente: no queda nada que cancelar.',
  },
  'order_cancellation.already_cancelled': {
    en: 'The order is cancelled already.',
    'zh-Hans': '订单已被取消。',
    'zh-Hant': '訂單已被取消。',
    fr: 'La commande est déjà annulée.',
    de: 'Der Auftrag ist bereits storniert.',
    es: 'El pedido ya está cancelado.',
  },
  'order_cancellation.under_interception': {
    en: 'The order is intercepted; its interception decides what happens to it.',
    'zh-Hans': '订单已被拦截；由拦截流程决定其处理方式。',
    'zh-Hant': '訂單已被攔截；由攔截流程決定其處理方式。',
    fr: "La commande est interceptée ; c'est son interception qui décide de la suite.",
    de: 'Der Auftrag wurde abgefangen; das Abfangen entscheidet, was mit ihm geschieht.',
    es: 'El pedido está interceptado; su intercepción decide qué ocurre con él.',
  },
  'order_cancellation.pending': {
    en: "A cancellation of this order is already waiting for its delivery provider's answer.",
    'zh-Hans': '此订单的取消请求正在等待配送服务商答复。',
    'zh-Hant': '此訂單的取消請求正在等待配送服務商答覆。',
    fr: 'Une annulation de cette commande attend déjà la réponse de son prestataire de livraison.',
    de: 'Eine Stornierung dieses Auftrags wartet bereits auf die Antwort seines Zustelldienstes.',
    es: 'Una cancelación de este pedido ya espera la respuesta de su proveedor de entrega.',
  },
  'order_cancellation.by_void': {
    en: 'This is a carrier label order: cancel it by voiding its label (cancel_shipping_label or uniorder_cancel).',
    'zh-Hans': '这是承运商面单订单：请通过作废其面单来取消（cancel_shipping_label 或 uniorder_cancel）。',
    'zh-Hant': '這是承運商面單訂單：請透過作廢其面單來取消（cancel_shipping_label 或 uniorder_cancel）。',
    fr: 'Il s’agit d’une commande d’étiquette transporteur : annulez-la en annulant son étiquette (cancel_shipping_label ou uniorder_cancel).',
    de: 'Dies ist ein Etikettenauftrag eines Spediteurs: Stornieren Sie ihn, indem Sie sein Etikett stornieren (cancel_shipping_label oder uniorder_cancel).',
    es: 'Es un pedido de etiqueta de transportista: cancélelo anulando su etiqueta (cancel_shipping_label o uniorder_cancel).',
  },
  'order_cancellation.answered': {
    en: 'This cancellation request was answered already, or its deadline has passed.',
    'zh-Hans': '此取消请求已答复，或已超过答复期限。',
    'zh-Hant': '此取消請求已答覆，或已超過答覆期限。',
    fr: 'Cette demande d’annulation a déjà reçu une réponse, ou son délai est dépassé.',
    de: 'Diese Stornierungsanfrage wurde bereits beantwortet, oder ihre Frist ist abgelaufen.',
    es: 'Esta solicitud de cancelación ya fue respondida o su plazo ha vencido.',
  },
  'order_cancellation.provider_refused': {
    en: 'The delivery provider holding the order refused to cancel it.',
    'zh-Hans': '承运该订单的配送服务商拒绝取消。',
    'zh-Hant': '承運該訂單的配送服務商拒絕取消。',
    fr: 'Le prestataire de livraison qui détient la commande a refusé de l’annuler.',
    de: 'Der Zustelldienst, der den Auftrag hält, hat die Stornierung abgelehnt.',
    es: 'El proveedor de entrega que tiene el pedido se negó a cancelarlo.',
  },
  'order_cancellation.provider_no_answer': {
    en: 'The delivery provider holding the order did not answer the cancellation in time.',
    'zh-Hans': '承运该订单的配送服务商未在期限内答复取消请求。',
    'zh-Hant': '承運該訂單的配送服務商未在期限內答覆取消請求。',
    fr: 'Le prestataire de livraison qui détient la commande n’a pas répondu à temps à l’annulation.',
    de: 'Der Zustelldienst, der den Auftrag hält, hat nicht rechtzeitig auf die Stornierung geantwortet.',
    es: 'El proveedor de entrega que tiene el pedido no respondió a tiempo a la cancelación.',
  },
  'order_cancellation.not_deletable': {
    en: 'Only a cancelled or delivered order that no process holds any more can be deleted.',
    'zh-Hans': '只有已取消或已送达且不再被任何流程占用的订单才能删除。',
    'zh-Hant': '只有已取消或已送達且不再被任何流程佔用的訂單才能刪除。',
    fr: 'Seule une commande annulée ou livrée, qu’aucun processus ne retient plus, peut être supprimée.',
    de: 'Nur ein stornierter oder zugestellter Auftrag, den kein Vorgang mehr hält, kann gelöscht werden.',
    es: 'Solo se puede eliminar un pedido cancelado o entregado que ya no retenga ningún proceso.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof ORDER_CANCELLATION_MESSAGES, true> {}
}

/** The message of each refusal code. */
export const REFUSAL_MESSAGE: Record<CancelRefusalCode, keyof typeof ORDER_CANCELLATION_MESSAGES> = {
  ORDER_GONE_OUT: 'order_cancellation.gone_out',
  ORDER_FINISHED: 'order_cancellation.finished',
  ORDER_ALREADY_CANCELLED: 'order_cancellation.already_cancelled',
  ORDER_UNDER_INTERCEPTION: 'order_cancellation.under_interception',
};
