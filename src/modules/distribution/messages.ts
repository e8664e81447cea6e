import type { Messages } from '../../platform/i18n/messages.ts';

export const DISTRIBUTION_MESSAGES = {
  'distribution.too_many_scanner_keys': {
    en: 'This place already holds {max} active scanner keys; revoke one first.',
    'zh-Hans': '该地点已有 {max} 个有效扫描器密钥；请先吊销一个。',
    'zh-Hant': '該地點已有 {max} 個有效掃描器金鑰；請先撤銷一個。',
    fr: "Ce lieu détient déjà {max} clés de scanner actives ; révoquez-en une d'abord.",
    de: 'Dieser Ort hat bereits {max} aktive Scannerschlüssel; widerrufen Sie zuerst einen.',
    es: 'Este lugar ya tiene {max} claves de escáner activas; revoque una primero.',
  },
  'distribution.scanner_elsewhere': {
    en: 'This scanner key is for place {place}; it scans there only.',
    'zh-Hans': '此扫描器密钥属于地点 {place}，只能在该地点扫描。',
    'zh-Hant': '此掃描器金鑰屬於地點 {place}，只能在該地點掃描。',
    fr: 'Cette clé de scanner est celle du lieu {place} ; elle ne scanne que là.',
    de: 'Dieser Scannerschlüssel gehört zum Ort {place}; er scannt nur dort.',
    es: 'Esta clave de escáner es del lugar {place}; solo escanea allí.',
  },
  'distribution.place_code_taken': {
    en: 'The business already has a place with this code.',
    'zh-Hans': '本企业已有使用此代码的地点。',
    'zh-Hant': '本企業已有使用此代碼的地點。',
    fr: "L'entreprise a déjà un lieu avec ce code.",
    de: 'Das Unternehmen hat bereits einen Ort mit diesem Code.',
    es: 'La empresa ya tiene un lugar con este código.',
  },
  'distribution.place_identifier_taken': {
    en: 'Another place already has this SGLN.',
    'zh-Hans': '另一个地点已使用此 SGLN。',
    'zh-Hant': '另一個地點已使用此 SGLN。',
    fr: 'Un autre lieu a déjà ce SGLN.',
    de: 'Ein anderer Ort hat bereits diese SGLN.',
    es: 'Otro lugar ya tiene este SGLN.',
  },
  'distribution.supplier_account_exists': {
    en: 'This carrier already has an active supplier account with the business.',
    'zh-Hans': '该承运商在本企业已有有效的供应商账户。',
    'zh-Hant': '該承運商在本企業已有有效的供應商帳戶。',
    fr: "Ce transporteur a déjà un compte fournisseur actif auprès de l'entreprise.",
    de: 'Dieser Frachtführer hat bereits ein aktives Lieferantenkonto bei dem Unternehmen.',
    es: 'Este transportista ya tiene una cuenta de proveedor activa con la empresa.',
  },
  'distribution.member_number_taken': {
    en: 'Another active supplier account of the business has this member number.',
    'zh-Hans': '本企业的另一个有效供应商账户已使用此会员编号。',
    'zh-Hant': '本企業的另一個有效供應商帳戶已使用此會員編號。',
    fr: "Un autre compte fournisseur actif de l'entreprise a ce numéro de membre.",
    de: 'Ein anderes aktives Lieferantenkonto des Unternehmens hat diese Mitgliedsnummer.',
    es: 'Otra cuenta de proveedor activa de la empresa tiene este número de miembro.',
  },
  'field.unknown_carrier': {
    en: 'No carrier has this code.',
    'zh-Hans': '没有承运商使用此代码。',
    'zh-Hant': '沒有承運商使用此代碼。',
    fr: "Aucun transporteur n'a ce code.",
    de: 'Kein Frachtführer hat diesen Code.',
    es: 'Ningún transportista tiene este código.',
  },
  'field.unknown_package': {
    en: 'No package of the business has this number.',
    'zh-Hans': '本企业没有此编号的包裹。',
    'zh-Hant': '本企業沒有此編號的包裹。',
    fr: "Aucun colis de l'entreprise n'a ce numéro.",
    de: 'Kein Paket des Unternehmens hat diese Nummer.',
    es: 'Ningún paquete de la empresa tiene este número.',
  },
  'field.unknown_place': {
    en: 'No place of the business has this code or identifier.',
    'zh-Hans': '本企业没有此代码或标识符的地点。',
    'zh-Hant': '本企業沒有此代碼或識別碼的地點。',
    fr: "Aucun lieu de l'entreprise n'a ce code ou cet identifiant.",
    de: 'Kein Ort des Unternehmens hat diesen Code oder diese Kennung.',
    es: 'Ningún lugar de la empresa tiene este código o identificador.',
  },
  'field.wrong_place_kind': {
    en: 'This step does not happen at a place of this kind ({kinds} only).',
    'zh-Hans': '此步骤不在此类地点进行（仅限 {kinds}）。',
    'zh-Hant': '此步驟不在此類地點進行（僅限 {kinds}）。',
    fr: "Cette étape n'a pas lieu dans un lieu de ce type ({kinds} uniquement).",
    de: 'Dieser Schritt findet nicht an einem Ort dieser Art statt (nur {kinds}).',
    es: 'Este paso no ocurre en un lugar de este tipo (solo {kinds}).',
  },
  'field.not_for_this_step': {
    en: 'This field is taken only by a step that uses it ({step}).',
    'zh-Hans': '此字段仅用于使用它的步骤（{step}）。',
    'zh-Hant': '此欄位僅用於使用它的步驟（{step}）。',
    fr: "Ce champ n'est accepté que pour l'étape qui l'utilise ({step}).",
    de: 'Dieses Feld wird nur von dem Schritt angenommen, der es verwendet ({step}).',
    es: 'Este campo solo se acepta en el paso que lo usa ({step}).',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof DISTRIBUTION_MESSAGES, true> {}
}
