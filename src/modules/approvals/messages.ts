import type { Messages } from '../../platform/i18n/messages.ts';

export const APPROVAL_MESSAGES = {
  'approval.unknown_tool': {
    en: 'This server has no write tool of this name that can be proposed.',
    'zh-Hans': '此服务器没有可提议的同名写入工具。',
    'zh-Hant': '此伺服器沒有可提議的同名寫入工具。',
    fr: "Ce serveur n'a aucun outil d'écriture de ce nom qui puisse être proposé.",
    de: 'Dieser Server hat kein vorschlagbares Schreibwerkzeug dieses Namens.',
    es: 'Este servidor no tiene ninguna herramienta de escritura con este nombre que se pueda proponer.',
  },
  'approval.decided': {
    en: 'This proposal is no longer pending: it is {status}.',
    'zh-Hans': '此提议已不再待处理：状态为 {status}。',
    'zh-Hant': '此提議已不再待處理：狀態為 {status}。',
    fr: "Cette proposition n'est plus en attente : elle est {status}.",
    de: 'Dieser Vorschlag ist nicht mehr offen: er ist {status}.',
    es: 'Esta propuesta ya no está pendiente: está {status}.',
  },
  'approval.self_approval': {
    en: 'A proposal must be approved by another person than the one who proposed it.',
    'zh-Hans': '提议必须由提议人以外的人批准。',
    'zh-Hant': '提議必須由提議人以外的人核准。',
    fr: "Une proposition doit être approuvée par une autre personne que celle qui l'a faite.",
    de: 'Ein Vorschlag muss von einer anderen Person genehmigt werden als der, die ihn gemacht hat.',
    es: 'Una propuesta debe aprobarla una persona distinta de quien la propuso.',
  },
  'approval.outcome_unknown': {
    en: 'The approved write was interrupted; whether it took effect is unknown. Check before proposing it again.',
    'zh-Hans': '已批准的写入被中断，无法确定是否生效。再次提议前请先核实。',
    'zh-Hant': '已核准的寫入被中斷，無法確定是否生效。再次提議前請先核實。',
    fr: "L'écriture approuvée a été interrompue ; on ne sait pas si elle a pris effet. Vérifiez avant de la proposer à nouveau.",
    de: 'Der genehmigte Schreibvorgang wurde unterbrochen; ob er wirksam wurde, ist unbekannt. Prüfen Sie das, bevor Sie ihn erneut vorschlagen.',
    es: 'La escritura aprobada se interrumpió; no se sabe si surtió efecto. Compruébelo antes de proponerla de nuevo.',
  },
  'approval.proposer_gone': {
    en: 'The account that proposed this write no longer belongs to the business, or the tool no longer exists; nothing was done.',
    'zh-Hans': '提议此写入的账户已不属于该企业，或该工具已不存在；未执行任何操作。',
    'zh-Hant': '提議此寫入的帳戶已不屬於該企業，或該工具已不存在；未執行任何操作。',
    fr: "Le compte qui a proposé cette écriture n'appartient plus à l'entreprise, ou l'outil n'existe plus ; rien n'a été fait.",
    de: 'Das Konto, das diesen Schreibvorgang vorgeschlagen hat, gehört nicht mehr zum Unternehmen, oder das Werkzeug existiert nicht mehr; nichts wurde ausgeführt.',
    es: 'La cuenta que propuso esta escritura ya no pertenece a la empresa, o la herramienta ya no existe; no se hizo nada.',
  },
  'notice.queued_for_approval': {
    en: 'Queued for human approval (X-MCP-Require-Approval): nothing was done yet. A person of the business approves or rejects it; follow it with get_approval.',
    'zh-Hans':
      '已排队等待人工批准（X-MCP-Require-Approval）：尚未执行任何操作。由企业人员批准或拒绝；可用 get_approval 跟进。',
    'zh-Hant':
      '已排隊等待人工核准（X-MCP-Require-Approval）：尚未執行任何操作。由企業人員核准或拒絕；可用 get_approval 追蹤。',
    fr: "Mis en file pour approbation humaine (X-MCP-Require-Approval) : rien n'a encore été fait. Une personne de l'entreprise l'approuve ou le rejette ; suivez-le avec get_approval.",
    de: 'Zur Genehmigung durch eine Person eingereiht (X-MCP-Require-Approval): noch wurde nichts ausgeführt. Eine Person des Unternehmens genehmigt oder lehnt ab; verfolgen Sie es mit get_approval.',
    es: 'En cola para aprobación humana (X-MCP-Require-Approval): aún no se hizo nada. Una persona de la empresa la aprueba o rechaza; sígala con get_approval.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof APPROVAL_MESSAGES, true> {}
}
