import type { Messages } from '../../platform/i18n/messages.ts';

export const WALLET_MESSAGES = {
  'wallet.insufficient_funds': {
    en: 'The wallet does not hold enough available money for this payment: nothing was taken.',
    'zh-Hans': '钱包可用余额不足以支付此款项：未扣除任何金额。',
    'zh-Hant': '錢包可用餘額不足以支付此款項：未扣除任何金額。',
    fr: 'Le portefeuille ne dispose pas d’assez d’argent disponible pour ce paiement : rien n’a été prélevé.',
    de: 'Die Geldbörse hat nicht genug verfügbares Guthaben für diese Zahlung: Es wurde nichts abgebucht.',
    es: 'El monedero no tiene suficiente dinero disponible para este pago: no se cobró nada.',
  },
  'wallet.transfer_key_reused': {
    en: 'This idempotency key was used for another transfer with other fields.',
    'zh-Hans': '该幂等键已用于字段不同的另一笔转账。',
    'zh-Hant': '該冪等鍵已用於欄位不同的另一筆轉帳。',
    fr: 'Cette clé d’idempotence a servi à un autre transfert aux champs différents.',
    de: 'Dieser Idempotenzschlüssel wurde für eine andere Buchung mit anderen Feldern verwendet.',
    es: 'Esta clave de idempotencia se usó para otra transferencia con otros campos.',
  },
  'wallet.hold_not_pending': {
    en: 'This hold was already posted or voided.',
    'zh-Hans': '该冻结款项已被入账或撤销。',
    'zh-Hant': '該凍結款項已被入帳或撤銷。',
    fr: 'Cette réservation a déjà été débitée ou annulée.',
    de: 'Diese Reservierung wurde bereits gebucht oder storniert.',
    es: 'Esta retención ya se cobró o se anuló.',
  },
  'wallet.hold_not_found': {
    en: 'No hold of the business has this key.',
    'zh-Hans': '企业没有使用此键的冻结款项。',
    'zh-Hant': '企業沒有使用此鍵的凍結款項。',
    fr: 'Aucune réservation de l’entreprise n’a cette clé.',
    de: 'Keine Reservierung des Unternehmens hat diesen Schlüssel.',
    es: 'Ninguna retención de la empresa tiene esta clave.',
  },
  'wallet.post_above_hold': {
    en: 'A hold is posted for at most its own amount.',
    'zh-Hans': '冻结款项入账金额不得超过其本身金额。',
    'zh-Hant': '凍結款項入帳金額不得超過其本身金額。',
    fr: 'Une réservation est débitée au plus de son propre montant.',
    de: 'Eine Reservierung wird höchstens mit ihrem eigenen Betrag gebucht.',
    es: 'Una retención se cobra como máximo por su propio importe.',
  },
  'wallet.amount_positive': {
    en: 'The amount must be greater than 0.',
    'zh-Hans': '金额必须大于 0。',
    'zh-Hant': '金額必須大於 0。',
    fr: 'Le montant doit être supérieur à 0.',
    de: 'Der Betrag muss größer als 0 sein.',
    es: 'El importe debe ser mayor que 0.',
  },
  'wallet.amount_format': {
    en: 'The amount must be a decimal number with at most {digits} decimal places for {currency}.',
    'zh-Hans': '金额必须是十进制数，{currency} 最多 {digits} 位小数。',
    'zh-Hant': '金額必須是十進位數，{currency} 最多 {digits} 位小數。',
    fr: 'Le montant doit être un nombre décimal avec au plus {digits} décimales pour {currency}.',
    de: 'Der Betrag muss eine Dezimalzahl mit höchstens {digits} Nachkommastellen für {currency} sein.',
    es: 'El importe debe ser un número decimal con como máximo {digits} decimales para {currency}.',
  },
  'wallet.top_up_limit': {
    en: 'A top-up is at most {limit} {currency}.',
    'zh-Hans': '单次充值最多为 {limit} {currency}。',
    'zh-Hant': '單次儲值最多為 {limit} {currency}。',
    fr: 'Un rechargement est d’au plus {limit} {currency}.',
    de: 'Eine Aufladung beträgt höchstens {limit} {currency}.',
    es: 'Una recarga es como máximo de {limit} {currency}.',
  },
  'wallet.account_limit': {
    en: 'This transfer would take a ledger account above its limit of {limit} {currency}: nothing moved.',
    'zh-Hans': '此转账将使账本账户超过其上限 {limit} {currency}：未转移任何金额。',
    'zh-Hant': '此轉帳將使帳本帳戶超過其上限 {limit} {currency}：未轉移任何金額。',
    fr: 'Ce transfert porterait un compte du grand livre au-delà de sa limite de {limit} {currency} : rien n’a été transféré.',
    de: 'Diese Buchung würde ein Konto des Hauptbuchs über seine Grenze von {limit} {currency} bringen: Es wurde nichts bewegt.',
    es: 'Esta transferencia llevaría una cuenta del libro mayor por encima de su límite de {limit} {currency}: no se movió nada.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof WALLET_MESSAGES, true> {}
}
