import type { Messages } from '../../platform/i18n/messages.ts';

/** App registration's messages (docs/apps.md, Registration), merged with the module's own. */
export const REGISTRATION_MESSAGES = {
  'apps.registration_code_sms': {
    en: 'Your {app} code is {code}. It expires in {minutes} minutes.',
    'zh-Hans': '您的 {app} 验证码是 {code}，{minutes} 分钟内有效。',
    'zh-Hant': '您的 {app} 驗證碼是 {code}，{minutes} 分鐘內有效。',
    fr: 'Votre code {app} est {code}. Il expire dans {minutes} minutes.',
    de: 'Ihr {app}-Code lautet {code}. Er läuft in {minutes} Minuten ab.',
    es: 'Su código de {app} es {code}. Caduca en {minutes} minutos.',
  },
  'apps.registration_code_sent': {
    en: 'A verification code is on its way to your phone.',
    'zh-Hans': '验证码正在发送到您的手机。',
    'zh-Hant': '驗證碼正在傳送到您的手機。',
    fr: 'Un code de vérification est en route vers votre téléphone.',
    de: 'Ein Bestätigungscode ist unterwegs zu Ihrem Telefon.',
    es: 'Un código de verificación está en camino a su teléfono.',
  },
  'apps.email_taken': {
    en: 'An account with this email already exists, or waits for approval: sign in instead.',
    'zh-Hans': '使用此电子邮件的账户已存在或正在等待批准：请直接登录。',
    'zh-Hant': '使用此電子郵件的帳戶已存在或正在等待核准：請直接登入。',
    fr: 'Un compte avec cette adresse e-mail existe déjà ou attend une approbation : connectez-vous plutôt.',
    de: 'Ein Konto mit dieser E-Mail-Adresse existiert bereits oder wartet auf Freigabe: Melden Sie sich stattdessen an.',
    es: 'Ya existe una cuenta con este correo electrónico, o está pendiente de aprobación: inicie sesión.',
  },
  'apps.identity_taken': {
    en: 'This identity is already bound to an account, or waits for approval: sign in with it instead.',
    'zh-Hans': '此身份已绑定到某个账户或正在等待批准：请直接用它登录。',
    'zh-Hant': '此身分已綁定到某個帳戶或正在等待核准：請直接用它登入。',
    fr: 'Cette identité est déjà liée à un compte ou attend une approbation : connectez-vous avec elle.',
    de: 'Diese Identität ist bereits mit einem Konto verknüpft oder wartet auf Freigabe: Melden Sie sich damit an.',
    es: 'Esta identidad ya está vinculada a una cuenta o pendiente de aprobación: inicie sesión con ella.',
  },
  'apps.sms_unavailable': {
    en: 'This app verifies phone numbers by SMS, which is not set up yet: registration is not possible for now.',
    'zh-Hans': '此应用通过短信验证电话号码，但短信尚未设置：暂时无法注册。',
    'zh-Hant': '此應用程式透過簡訊驗證電話號碼，但簡訊尚未設定：暫時無法註冊。',
    fr: "Cette application vérifie les numéros par SMS, qui n'est pas encore configuré : l'inscription est impossible pour le moment.",
    de: 'Diese App prüft Telefonnummern per SMS, die noch nicht eingerichtet ist: Eine Registrierung ist derzeit nicht möglich.',
    es: 'Esta aplicación verifica los teléfonos por SMS, que aún no está configurado: por ahora no es posible registrarse.',
  },
  'apps.registration_expired': {
    en: 'This registration has expired: start a new one.',
    'zh-Hans': '此注册已过期：请重新注册。',
    'zh-Hant': '此註冊已過期：請重新註冊。',
    fr: 'Cette inscription a expiré : recommencez.',
    de: 'Diese Registrierung ist abgelaufen: Beginnen Sie eine neue.',
    es: 'Este registro ha caducado: empiece uno nuevo.',
  },
  'apps.registration_closed': {
    en: 'This registration is already {status}.',
    'zh-Hans': '此注册已处于 {status} 状态。',
    'zh-Hant': '此註冊已處於 {status} 狀態。',
    fr: 'Cette inscription est déjà à l’état {status}.',
    de: 'Diese Registrierung ist bereits im Status {status}.',
    es: 'Este registro ya está en estado {status}.',
  },
  'apps.resend_too_soon': {
    en: 'A new code can be sent in {seconds} seconds.',
    'zh-Hans': '{seconds} 秒后才能发送新验证码。',
    'zh-Hant': '{seconds} 秒後才能發送新驗證碼。',
    fr: 'Un nouveau code pourra être envoyé dans {seconds} secondes.',
    de: 'Ein neuer Code kann in {seconds} Sekunden gesendet werden.',
    es: 'Se podrá enviar un código nuevo dentro de {seconds} segundos.',
  },
  'apps.wrong_code': {
    en: 'The code is not right.',
    'zh-Hans': '验证码不正确。',
    'zh-Hant': '驗證碼不正確。',
    fr: "Le code n'est pas correct.",
    de: 'Der Code ist nicht richtig.',
    es: 'El código no es correcto.',
  },
  'apps.invalid_phone': {
    en: 'This is not a valid phone number (a national number is read in the app’s region {region}).',
    'zh-Hans': '这不是有效的电话号码（国内号码按应用所在地区 {region} 解析）。',
    'zh-Hant': '這不是有效的電話號碼（國內號碼依應用程式所在地區 {region} 解析）。',
    fr: "Ce n'est pas un numéro de téléphone valide (un numéro national est lu dans la région {region} de l'application).",
    de: 'Dies ist keine gültige Telefonnummer (eine nationale Nummer wird in der Region {region} der App gelesen).',
    es: 'No es un número de teléfono válido (un número nacional se lee en la región {region} de la aplicación).',
  },
  'apps.registration_pending': {
    en: 'Your account waits for the approval of {client}.',
    'zh-Hans': '您的账户正在等待 {client} 的批准。',
    'zh-Hant': '您的帳戶正在等待 {client} 的核准。',
    fr: "Votre compte attend l'approbation de {client}.",
    de: 'Ihr Konto wartet auf die Freigabe durch {client}.',
    es: 'Su cuenta está pendiente de la aprobación de {client}.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof REGISTRATION_MESSAGES, true> {}
}
