import type { Messages } from '../../platform/i18n/messages.ts';
import type { BoardRefusal } from './domain.ts';

export const ROUTE_BOARD_MESSAGES = {
  'route_board.not_open': {
    en: 'The route board is not in that phase: claims wait until it opens, drivers are named once it has closed.',
    'zh-Hans': '路线看板不处于该阶段：认领需等看板开放，司机须在看板关闭后指定。',
    'zh-Hant': '路線看板不處於該階段：認領需等看板開放，司機須在看板關閉後指定。',
    fr: "Le tableau des tournées n'est pas à cette étape : les demandes attendent son ouverture, les chauffeurs sont désignés après sa clôture.",
    de: 'Die Tourenbörse ist nicht in dieser Phase: Ansprüche warten auf ihre Öffnung, Fahrer werden nach ihrem Schluss benannt.',
    es: 'El tablero de rutas no está en esa fase: las solicitudes esperan a que abra y los conductores se designan cuando ha cerrado.',
  },
  'route_board.closed': {
    en: 'The route board has closed: claims are no longer taken or changed.',
    'zh-Hans': '路线看板已关闭：不再接受或更改认领。',
    'zh-Hant': '路線看板已關閉：不再接受或更改認領。',
    fr: 'Le tableau des tournées est clos : les demandes ne sont plus acceptées ni modifiées.',
    de: 'Die Tourenbörse ist geschlossen: Ansprüche werden nicht mehr angenommen oder geändert.',
    es: 'El tablero de rutas ha cerrado: ya no se aceptan ni cambian solicitudes.',
  },
  'route_board.ended': {
    en: 'The route board is settled or cancelled: nothing changes any more.',
    'zh-Hans': '路线看板已结算或已取消：不再有任何更改。',
    'zh-Hant': '路線看板已結算或已取消：不再有任何更改。',
    fr: 'Le tableau des tournées est réglé ou annulé : plus rien ne change.',
    de: 'Die Tourenbörse ist abgerechnet oder storniert: Es ändert sich nichts mehr.',
    es: 'El tablero de rutas está liquidado o cancelado: ya no cambia nada.',
  },
  'route_board.already_claimed': {
    en: 'You already have a live claim on this seat, or a live pooled claim on this board.',
    'zh-Hans': '您已对该席位有有效认领，或已在该看板有有效的池认领。',
    'zh-Hant': '您已對該席位有有效認領，或已在該看板有有效的池認領。',
    fr: 'Vous avez déjà une demande en cours sur cette place, ou une demande groupée en cours sur ce tableau.',
    de: 'Sie haben bereits einen laufenden Anspruch auf diesen Platz oder einen laufenden Pool-Anspruch auf dieser Börse.',
    es: 'Ya tiene una solicitud activa en este puesto o una solicitud de grupo activa en este tablero.',
  },
  'route_board.vetoed': {
    en: 'The business vetoed your claim on this seat.',
    'zh-Hans': '企业已否决您对该席位的认领。',
    'zh-Hant': '企業已否決您對該席位的認領。',
    fr: "L'entreprise a refusé votre demande sur cette place.",
    de: 'Das Unternehmen hat Ihren Anspruch auf diesen Platz abgelehnt.',
    es: 'La empresa vetó su solicitud en este puesto.',
  },
  'route_board.claim_not_live': {
    en: 'The claim has ended or cannot take this step.',
    'zh-Hans': '该认领已结束或无法执行此步骤。',
    'zh-Hant': '該認領已結束或無法執行此步驟。',
    fr: 'La demande est terminée ou ne peut pas franchir cette étape.',
    de: 'Der Anspruch ist beendet oder kann diesen Schritt nicht ausführen.',
    es: 'La solicitud ha terminado o no puede dar este paso.',
  },
  'route_board.not_awarded': {
    en: 'Only an awarded claim names its driver.',
    'zh-Hans': '只有已中标的认领才能指定司机。',
    'zh-Hant': '只有已得標的認領才能指定司機。',
    fr: 'Seule une demande attribuée désigne son chauffeur.',
    de: 'Nur ein zugeschlagener Anspruch benennt seinen Fahrer.',
    es: 'Solo una solicitud adjudicada designa a su conductor.',
  },
  'route_board.driver_not_available': {
    en: 'The driver is not an active driver of the business, or already drives another route on that date.',
    'zh-Hans': '该司机不是企业的在职司机，或当天已驾驶另一条路线。',
    'zh-Hant': '該司機不是企業的在職司機，或當天已駕駛另一條路線。',
    fr: "Le chauffeur n'est pas un chauffeur actif de l'entreprise, ou conduit déjà une autre tournée ce jour-là.",
    de: 'Der Fahrer ist kein aktiver Fahrer des Unternehmens oder fährt an diesem Tag bereits eine andere Tour.',
    es: 'El conductor no es un conductor activo de la empresa o ya conduce otra ruta ese día.',
  },
  'route_board.route_not_planned': {
    en: 'The route has started, finished or been cancelled: its driver no longer changes through the board.',
    'zh-Hans': '该路线已开始、已完成或已取消：其司机不再通过看板更改。',
    'zh-Hant': '該路線已開始、已完成或已取消：其司機不再透過看板更改。',
    fr: 'La tournée a commencé, est terminée ou annulée : son chauffeur ne change plus par le tableau.',
    de: 'Die Tour hat begonnen, ist beendet oder storniert: Ihr Fahrer ändert sich nicht mehr über die Börse.',
    es: 'La ruta ha empezado, terminado o se ha cancelado: su conductor ya no cambia a través del tablero.',
  },
  'route_board.route_not_offerable': {
    en: 'This route is not planned for the board date, or is on another board that has not ended.',
    'zh-Hans': '该路线未计划在看板日期，或已在另一个未结束的看板上。',
    'zh-Hant': '該路線未計劃在看板日期，或已在另一個未結束的看板上。',
    fr: "Cette tournée n'est pas planifiée à la date du tableau, ou figure sur un autre tableau non terminé.",
    de: 'Diese Tour ist nicht für das Datum der Börse geplant oder steht auf einer anderen, nicht beendeten Börse.',
    es: 'Esta ruta no está planificada para la fecha del tablero o está en otro tablero que no ha terminado.',
  },
  'route_board.times': {
    en: 'The board opens before it closes, closes in the future, and settles after it closes and within a year.',
    'zh-Hans': '看板须先开放后关闭，关闭时间须在未来，结算须在关闭之后且在一年之内。',
    'zh-Hant': '看板須先開放後關閉，關閉時間須在未來，結算須在關閉之後且在一年之內。',
    fr: 'Le tableau ouvre avant de clore, clôt dans le futur et se règle après sa clôture.',
    de: 'Die Börse öffnet vor ihrem Schluss, schließt in der Zukunft und wird nach dem Schluss innerhalb eines Jahres abgerechnet.',
    es: 'El tablero abre antes de cerrar, cierra en el futuro y se liquida después de cerrar y dentro de un año.',
  },
  'route_board.unknown_route': {
    en: 'No route of the business has this id.',
    'zh-Hans': '企业没有此编号的路线。',
    'zh-Hant': '企業沒有此編號的路線。',
    fr: "Aucune tournée de l'entreprise n'a cet identifiant.",
    de: 'Keine Tour des Unternehmens hat diese ID.',
    es: 'Ninguna ruta de la empresa tiene este identificador.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof ROUTE_BOARD_MESSAGES, true> {}
}

type Key = keyof typeof ROUTE_BOARD_MESSAGES;

/** The message of each refusal a change can answer (the not-found ones answer NOT_FOUND). */
export const REFUSAL_MESSAGE: Record<Exclude<BoardRefusal, 'SEAT_NOT_FOUND' | 'CLAIM_NOT_FOUND'>, Key> = {
  BOARD_NOT_OPEN: 'route_board.not_open',
  BOARD_CLOSED: 'route_board.closed',
  BOARD_ENDED: 'route_board.ended',
  ALREADY_CLAIMED: 'route_board.already_claimed',
  CLAIM_VETOED: 'route_board.vetoed',
  CLAIM_NOT_LIVE: 'route_board.claim_not_live',
  CLAIM_NOT_AWARDED: 'route_board.not_awarded',
  DRIVER_NOT_AVAILABLE: 'route_board.driver_not_available',
  ROUTE_NOT_PLANNED: 'route_board.route_not_planned',
};
