import type { Messages } from '../../platform/i18n/messages.ts';

export const LOCKER_DELIVERIES_MESSAGES = {
  'locker_delivery.duplicate_reference': {
    en: 'Each parcel of a delivery needs its own reference.',
    'zh-Hans': '同一派送中的每个包裹需要不同的参考号。',
    'zh-Hant': '同一派送中的每個包裹需要不同的參考號。',
    fr: "Chaque colis d'une livraison doit avoir sa propre référence.",
    de: 'Jedes Paket einer Zustellung braucht eine eigene Referenz.',
    es: 'Cada paquete de una entrega necesita su propia referencia.',
  },
  'locker_delivery.unknown_locker': {
    en: 'No locker you may deliver into has this id.',
    'zh-Hans': '没有您可以投递的此 ID 的储物柜。',
    'zh-Hant': '沒有您可以投遞的此 ID 的儲物櫃。',
    fr: "Aucun casier dans lequel vous pouvez livrer n'a cet identifiant.",
    de: 'Kein Schließfach, in das Sie zustellen dürfen, hat diese ID.',
    es: 'Ningún casillero en el que pueda entregar tiene este identificador.',
  },
  'locker_delivery.no_free_compartment': {
    en: 'This locker has no free compartment of size {size} for this parcel.',
    'zh-Hans': '该储物柜没有可容纳此包裹的 {size} 号空闲格口。',
    'zh-Hant': '該儲物櫃沒有可容納此包裹的 {size} 號空閒格口。',
    fr: "Ce casier n'a plus de compartiment libre de taille {size} pour ce colis.",
    de: 'Dieses Schließfach hat kein freies Fach der Größe {size} für dieses Paket.',
    es: 'Este casillero no tiene un compartimento libre de tamaño {size} para este paquete.',
  },
  'locker_delivery.invalid_transition': {
    en: 'This delivery is {status}; {action} is not possible now.',
    'zh-Hans': '该派送状态为 {status}，当前无法执行 {action}。',
    'zh-Hant': '該派送狀態為 {status}，目前無法執行 {action}。',
    fr: 'Cette livraison est {status} ; {action} est impossible pour le moment.',
    de: 'Diese Zustellung ist {status}; {action} ist jetzt nicht möglich.',
    es: 'Esta entrega está {status}; {action} no es posible ahora.',
  },
  'locker_delivery.unknown_parcel': {
    en: 'This delivery has no parcel with this reference.',
    'zh-Hans': '该派送中没有此参考号的包裹。',
    'zh-Hant': '該派送中沒有此參考號的包裹。',
    fr: "Cette livraison n'a aucun colis avec cette référence.",
    de: 'Diese Zustellung hat kein Paket mit dieser Referenz.',
    es: 'Esta entrega no tiene ningún paquete con esta referencia.',
  },
  'locker_delivery.not_its_compartment': {
    en: "This compartment holds none of this delivery's parcels.",
    'zh-Hans': '此格口中没有该派送的包裹。',
    'zh-Hant': '此格口中沒有該派送的包裹。',
    fr: 'Ce compartiment ne contient aucun colis de cette livraison.',
    de: 'Dieses Fach enthält kein Paket dieser Zustellung.',
    es: 'Este compartimento no contiene ningún paquete de esta entrega.',
  },
  'locker_delivery.correction_closed': {
    en: 'The correction window of this delivery has closed, or the recipient has already opened its doors.',
    'zh-Hans': '该派送的更正时限已过，或收件人已打开格口。',
    'zh-Hant': '該派送的更正時限已過，或收件人已打開格口。',
    fr: 'La fenêtre de correction de cette livraison est close, ou le destinataire a déjà ouvert ses portes.',
    de: 'Das Korrekturfenster dieser Zustellung ist geschlossen, oder der Empfänger hat die Türen bereits geöffnet.',
    es: 'La ventana de corrección de esta entrega se ha cerrado, o el destinatario ya ha abierto sus puertas.',
  },
  'locker_delivery.no_delivery_code': {
    en: 'This delivery opens remotely and has no delivery code.',
    'zh-Hans': '该派送通过远程开门，没有投递码。',
    'zh-Hant': '該派送透過遠端開門，沒有投遞碼。',
    fr: "Cette livraison s'ouvre à distance et n'a pas de code de dépôt.",
    de: 'Diese Zustellung wird aus der Ferne geöffnet und hat keinen Zustellcode.',
    es: 'Esta entrega se abre a distancia y no tiene código de entrega.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof LOCKER_DELIVERIES_MESSAGES, true> {}
}
