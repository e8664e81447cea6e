import type { Messages } from '../../platform/i18n/messages.ts';

export const ORDER_CHAT_MESSAGES = {
  'order_chat.unknown_message': {
    en: "This message is not one of the order's conversation.",
    'zh-Hans': '此消息不属于该订单的会话。',
    'zh-Hant': '此訊息不屬於該訂單的對話。',
    fr: 'Ce message ne fait pas partie de la conversation de la commande.',
    de: 'Diese Nachricht gehört nicht zur Unterhaltung des Auftrags.',
    es: 'Este mensaje no pertenece a la conversación del pedido.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof ORDER_CHAT_MESSAGES, true> {}
}
