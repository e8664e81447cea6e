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
  'device_order.exception_already_open': {
    en: 'This device order already has an open exception of this type.',
    'zh-Hans': '该设备订单已有此类型的未处理异常。',
    'zh-Hant': '該裝置訂單已有此類型的未處理異常。',
    fr: "Cette commande d'appareil a déjà une exception ouverte de ce type.",
    de: 'Dieser Geräteauftrag hat bereits eine offene Ausnahme dieses Typs.',
    es: 'Este pedido de dispositivo ya tiene una excepción abierta de este tipo.',
  },
  'device_order.exception_not_open': {
    en: 'This exception has already been resolved or dismissed.',
    'zh-Hans': '该异常已被处理或驳回。',
    'zh-Hant': '該異常已被處理或駁回。',
    fr: 'Cette exception a déjà été résolue ou écartée.',
    de: 'Diese Ausnahme wurde bereits gelöst oder verworfen.',
    es: 'Esta excepción ya se resolvió o se descartó.',
  },
  'device_order.process_outdated': {
    en: "This device order's process was started before exceptions were handled by it; open or resolve them once it has ended.",
    'zh-Hans': '该设备订单的流程启动于异常处理功能上线之前；请在流程结束后再创建或处理异常。',
    'zh-Hant': '該裝置訂單的流程啟動於異常處理功能上線之前；請在流程結束後再建立或處理異常。',
    fr: "Le processus de cette commande d'appareil a démarré avant la prise en charge des exceptions ; ouvrez-les ou résolvez-les une fois qu'il est terminé.",
    de: 'Der Prozess dieses Geräteauftrags wurde gestartet, bevor er Ausnahmen verarbeiten konnte; öffnen oder lösen Sie sie, sobald er beendet ist.',
    es: 'El proceso de este pedido de dispositivo se inició antes de que gestionara excepciones; ábralas o resuélvalas cuando haya terminado.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DEVICE_ORDERS_MESSAGES, true> {}
}
