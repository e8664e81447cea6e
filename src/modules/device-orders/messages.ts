import type { Messages } from '../../platform/i18n/messages.ts';

export const DEVICE_ORDERS_MESSAGES = {
  'field.unknown_device': {
    en: 'No device of your business has this id.',
    'zh-Hans': '贵公司没有此 ID 的设备。',
    'zh-Hant': '貴公司沒有此 ID 的裝置。',
    fr: "Aucun appareil de votre entreprise n'a cet identifiant.",
    de: 'Kein Gerät Ihres Unternehmens hat diese ID.',
    es: 'Ningún dispositivo de su empresa tiene este identificador.',
  },
  'field.unknown_grid': {
    en: 'This device has no compartment with this code.',
    'zh-Hans': '该设备没有此编码的格口。',
    'zh-Hant': '該裝置沒有此代碼的格口。',
    fr: "Cet appareil n'a pas de casier avec ce code.",
    de: 'Dieses Gerät hat kein Fach mit diesem Code.',
    es: 'Este dispositivo no tiene ningún compartimento con este código.',
  },
  'field.unknown_order': {
    en: 'No order of your business has this id.',
    'zh-Hans': '贵公司没有此 ID 的订单。',
    'zh-Hant': '貴公司沒有此 ID 的訂單。',
    fr: "Aucune commande de votre entreprise n'a cet identifiant.",
    de: 'Kein Auftrag Ihres Unternehmens hat diese ID.',
    es: 'Ningún pedido de su empresa tiene este identificador.',
  },
  'field.due_in_past': {
    en: 'Must be in the future.',
    'zh-Hans': '必须是将来的时间。',
    'zh-Hant': '必須是未來的時間。',
    fr: 'Doit être dans le futur.',
    de: 'Muss in der Zukunft liegen.',
    es: 'Debe estar en el futuro.',
  },
  'device_order.wrong_pickup_code': {
    en: 'The pickup code is incorrect.',
    'zh-Hans': '取件码不正确。',
    'zh-Hant': '取件碼不正確。',
    fr: 'Le code de retrait est incorrect.',
    de: 'Der Abholcode ist falsch.',
    es: 'El código de recogida es incorrecto.',
  },
  'device_order.invalid_transition': {
    en: 'A device order in status {status} cannot be {action}.',
    'zh-Hans': '状态为 {status} 的设备订单无法执行 {action}。',
    'zh-Hant': '狀態為 {status} 的裝置訂單無法執行 {action}。',
    fr: "Une commande d'appareil au statut {status} ne peut pas faire l'objet de l'action {action}.",
    de: 'Ein Geräteauftrag im Status {status} kann nicht {action} werden.',
    es: 'Un pedido de dispositivo en estado {status} no admite la acción {action}.',
  },
  'device_order.compartment_occupied': {
    en: 'This compartment already holds an active device order.',
    'zh-Hans': '该格口已有进行中的设备订单。',
    'zh-Hant': '該格口已有進行中的裝置訂單。',
    fr: "Ce casier contient déjà une commande d'appareil active.",
    de: 'Dieses Fach enthält bereits einen aktiven Geräteauftrag.',
    es: 'Este compartimento ya contiene un pedido de dispositivo activo.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DEVICE_ORDERS_MESSAGES, true> {}
}
