import type { Messages } from '../../platform/i18n/messages.ts';

export const LOCKERS_MESSAGES = {
  'lockers.too_many_keys': {
    en: 'This device already holds {max} active keys; revoke one first.',
    'zh-Hans': '该设备已有 {max} 个有效密钥；请先吊销一个。',
    'zh-Hant': '該裝置已有 {max} 個有效金鑰；請先撤銷一個。',
    fr: "Cet appareil détient déjà {max} clés actives ; révoquez-en une d'abord.",
    de: 'Dieses Gerät hat bereits {max} aktive Schlüssel; widerrufen Sie zuerst einen.',
    es: 'Este dispositivo ya tiene {max} claves activas; revoque una primero.',
  },
  'lockers.unknown_door': {
    en: 'This locker has no door with this number.',
    'zh-Hans': '该储物柜没有此编号的格口门。',
    'zh-Hant': '該儲物櫃沒有此編號的格口門。',
    fr: "Ce casier n'a aucune porte avec ce numéro.",
    de: 'Dieses Schließfach hat keine Tür mit dieser Nummer.',
    es: 'Este casillero no tiene ninguna puerta con este número.',
  },
  'lockers.door_report_ahead': {
    en: "This time is more than five minutes ahead of the service's clock; check the locker's clock.",
    'zh-Hans': '该时间比服务时钟快五分钟以上；请检查储物柜的时钟。',
    'zh-Hant': '該時間比服務時鐘快五分鐘以上；請檢查儲物櫃的時鐘。',
    fr: "Cette heure a plus de cinq minutes d'avance sur l'horloge du service ; vérifiez l'horloge du casier.",
    de: 'Diese Zeit liegt mehr als fünf Minuten vor der Uhr des Dienstes; prüfen Sie die Uhr des Schließfachs.',
    es: 'Esta hora va más de cinco minutos por delante del reloj del servicio; revise el reloj del casillero.',
  },
  'lockers.wrong_code': {
    en: 'This code opens nothing in this locker.',
    'zh-Hans': '此代码无法打开该储物柜的任何格口。',
    'zh-Hant': '此代碼無法打開該儲物櫃的任何格口。',
    fr: "Ce code n'ouvre rien dans ce casier.",
    de: 'Dieser Code öffnet in diesem Schließfach nichts.',
    es: 'Este código no abre nada en este casillero.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof LOCKERS_MESSAGES, true> {}
}
