import type { Language } from './languages.ts';

export type Translations = Record<Language, string>;
export type Messages = Record<string, Translations>;

/**
 * The messages that belong to no feature: request errors and field problems. Modules bring their own in their
 * `messages.ts`, and `src/modules/index.ts` registers them; a test fails when a key lacks a language.
 * `{name}` placeholders are filled from the message parameters.
 */
export const PLATFORM_MESSAGES = {
  'error.validation': {
    en: 'The request is invalid.',
    'zh-Hans': '请求无效。',
    'zh-Hant': '請求無效。',
    fr: 'La requête est invalide.',
    de: 'Die Anfrage ist ungültig.',
    es: 'La solicitud no es válida.',
  },
  'error.unauthenticated': {
    en: 'Authentication is required: send a valid bearer token.',
    'zh-Hans': '需要身份验证：请发送有效的 Bearer 令牌。',
    'zh-Hant': '需要身分驗證：請傳送有效的 Bearer 權杖。',
    fr: 'Authentification requise : envoyez un jeton Bearer valide.',
    de: 'Anmeldung erforderlich: Senden Sie ein gültiges Bearer-Token.',
    es: 'Se requiere autenticación: envíe un token Bearer válido.',
  },
  'error.invalid_credentials': {
    en: 'The email or password is incorrect.',
    'zh-Hans': '邮箱或密码不正确。',
    'zh-Hant': '電子郵件或密碼不正確。',
    fr: "L'adresse e-mail ou le mot de passe est incorrect.",
    de: 'E-Mail-Adresse oder Passwort ist falsch.',
    es: 'El correo electrónico o la contraseña son incorrectos.',
  },
  'error.forbidden': {
    en: 'You are not authorized to perform this operation.',
    'zh-Hans': '您无权执行此操作。',
    'zh-Hant': '您無權執行此操作。',
    fr: "Vous n'êtes pas autorisé à effectuer cette opération.",
    de: 'Sie sind nicht berechtigt, diesen Vorgang auszuführen.',
    es: 'No está autorizado para realizar esta operación.',
  },
  'error.customer_only': {
    en: 'Only customer accounts can use this operation: sign in with a customer account.',
    'zh-Hans': '只有客户账户可以使用此操作：请使用客户账户登录。',
    'zh-Hant': '只有客戶帳戶可以使用此操作：請使用客戶帳戶登入。',
    fr: 'Seuls les comptes clients peuvent utiliser cette opération : connectez-vous avec un compte client.',
    de: 'Nur Kundenkonten können diesen Vorgang nutzen: Melden Sie sich mit einem Kundenkonto an.',
    es: 'Solo las cuentas de cliente pueden usar esta operación: inicie sesión con una cuenta de cliente.',
  },
  'error.missing_scope': {
    en: 'This tool needs the scope {scope}, which this connection was not granted (X-MCP-Profile or X-MCP-Scopes).',
    'zh-Hans': '此工具需要权限范围 {scope}，而此连接未获授予（X-MCP-Profile 或 X-MCP-Scopes）。',
    'zh-Hant': '此工具需要權限範圍 {scope}，而此連線未獲授予（X-MCP-Profile 或 X-MCP-Scopes）。',
    fr: "Cet outil demande la portée {scope}, que cette connexion n'a pas reçue (X-MCP-Profile ou X-MCP-Scopes).",
    de: 'Dieses Werkzeug braucht den Geltungsbereich {scope}, den diese Verbindung nicht erhalten hat (X-MCP-Profile oder X-MCP-Scopes).',
    es: 'Esta herramienta necesita el alcance {scope}, que esta conexión no recibió (X-MCP-Profile o X-MCP-Scopes).',
  },
  'error.confirmation_required': {
    en: 'This is a high-risk tool: nothing was done. Call it again with confirm: true, or queue it for a person to approve (propose_write, or the header X-MCP-Require-Approval: 1).',
    'zh-Hans':
      '这是高风险工具：未执行任何操作。请使用 confirm: true 再次调用，或将其排队等待人工批准（propose_write 或请求头 X-MCP-Require-Approval: 1）。',
    'zh-Hant':
      '這是高風險工具：未執行任何操作。請使用 confirm: true 再次呼叫，或將其排隊等待人工核准（propose_write 或標頭 X-MCP-Require-Approval: 1）。',
    fr: "Outil à haut risque : rien n'a été fait. Appelez-le de nouveau avec confirm: true, ou mettez-le en attente d'approbation humaine (propose_write, ou l'en-tête X-MCP-Require-Approval: 1).",
    de: 'Werkzeug mit hohem Risiko: Es wurde nichts ausgeführt. Rufen Sie es erneut mit confirm: true auf oder stellen Sie es zur Freigabe durch eine Person ein (propose_write oder der Header X-MCP-Require-Approval: 1).',
    es: 'Herramienta de alto riesgo: no se hizo nada. Llámela de nuevo con confirm: true, o póngala en cola para aprobación humana (propose_write, o el encabezado X-MCP-Require-Approval: 1).',
  },
  'error.api_token_removed': {
    en: 'The api_token argument ended on 2026-12-31: send the token in the connection header, Authorization: Bearer <token>.',
    'zh-Hans': 'api_token 参数已于 2026-12-31 停用：请在连接请求头中发送令牌，Authorization: Bearer <token>。',
    'zh-Hant': 'api_token 參數已於 2026-12-31 停用：請在連線標頭中傳送權杖，Authorization: Bearer <token>。',
    fr: "L'argument api_token a pris fin le 2026-12-31 : envoyez le jeton dans l'en-tête de la connexion, Authorization: Bearer <token>.",
    de: 'Das Argument api_token endete am 2026-12-31: Senden Sie das Token im Header der Verbindung, Authorization: Bearer <token>.',
    es: 'El argumento api_token terminó el 2026-12-31: envíe el token en el encabezado de la conexión, Authorization: Bearer <token>.',
  },
  'notice.api_token_deprecated': {
    en: 'Deprecated: the api_token argument is accepted until 2026-12-31 only. Send the token in the connection header, Authorization: Bearer <token>.',
    'zh-Hans': '已弃用：api_token 参数仅接受至 2026-12-31。请在连接请求头中发送令牌，Authorization: Bearer <token>。',
    'zh-Hant': '已棄用：api_token 參數僅接受至 2026-12-31。請在連線標頭中傳送權杖，Authorization: Bearer <token>。',
    fr: "Obsolète : l'argument api_token n'est accepté que jusqu'au 2026-12-31. Envoyez le jeton dans l'en-tête de la connexion, Authorization: Bearer <token>.",
    de: 'Veraltet: Das Argument api_token wird nur bis 2026-12-31 angenommen. Senden Sie das Token im Header der Verbindung, Authorization: Bearer <token>.',
    es: 'Obsoleto: el argumento api_token solo se acepta hasta el 2026-12-31. Envíe el token en el encabezado de la conexión, Authorization: Bearer <token>.',
  },
  'error.not_found': {
    en: 'The requested resource was not found.',
    'zh-Hans': '未找到请求的资源。',
    'zh-Hant': '找不到請求的資源。',
    fr: 'La ressource demandée est introuvable.',
    de: 'Die angeforderte Ressource wurde nicht gefunden.',
    es: 'No se encontró el recurso solicitado.',
  },
  'error.route_not_found': {
    en: 'No endpoint answers at this path.',
    'zh-Hans': '此路径没有对应的接口。',
    'zh-Hant': '此路徑沒有對應的端點。',
    fr: 'Aucun point de terminaison ne répond à ce chemin.',
    de: 'Unter diesem Pfad antwortet kein Endpunkt.',
    es: 'Ningún endpoint responde en esta ruta.',
  },
  'error.host_not_allowed': {
    en: 'This service does not answer to the host that the {header} header names. If it is one of its own names, add it to ALLOWED_HOSTS.',
    'zh-Hans': '本服务不响应 {header} 请求头所指的主机。如果它是本服务自己的名称，请将其加入 ALLOWED_HOSTS。',
    'zh-Hant': '本服務不回應 {header} 標頭所指的主機。如果它是本服務自己的名稱，請將其加入 ALLOWED_HOSTS。',
    fr: "Ce service ne répond pas à l'hôte que nomme l'en-tête {header}. S'il s'agit de l'un de ses propres noms, ajoutez-le à ALLOWED_HOSTS.",
    de: 'Dieser Dienst antwortet nicht auf den Host, den der Header {header} nennt. Ist es einer seiner eigenen Namen, nehmen Sie ihn in ALLOWED_HOSTS auf.',
    es: 'Este servicio no responde al host que nombra el encabezado {header}. Si es uno de sus propios nombres, añádalo a ALLOWED_HOSTS.',
  },
  'error.method_not_allowed': {
    en: 'This method is not allowed on this path.',
    'zh-Hans': '此路径不允许该方法。',
    'zh-Hant': '此路徑不允許該方法。',
    fr: "Cette méthode n'est pas autorisée sur ce chemin.",
    de: 'Diese Methode ist für diesen Pfad nicht erlaubt.',
    es: 'Este método no está permitido en esta ruta.',
  },
  'error.malformed_json': {
    en: 'The request body is not valid JSON.',
    'zh-Hans': '请求正文不是有效的 JSON。',
    'zh-Hant': '請求內文不是有效的 JSON。',
    fr: "Le corps de la requête n'est pas un JSON valide.",
    de: 'Der Anfragetext ist kein gültiges JSON.',
    es: 'El cuerpo de la solicitud no es un JSON válido.',
  },
  'error.unsupported_media_type': {
    en: 'Send the request body as application/json.',
    'zh-Hans': '请以 application/json 格式发送请求正文。',
    'zh-Hant': '請以 application/json 格式傳送請求內文。',
    fr: 'Envoyez le corps de la requête au format application/json.',
    de: 'Senden Sie den Anfragetext als application/json.',
    es: 'Envíe el cuerpo de la solicitud como application/json.',
  },
  'error.media_type_not_accepted': {
    en: 'Send the request body as one of: {types}.',
    'zh-Hans': '请以下列格式之一发送请求正文：{types}。',
    'zh-Hant': '請以下列格式之一傳送請求內文：{types}。',
    fr: "Envoyez le corps de la requête dans l'un de ces formats : {types}.",
    de: 'Senden Sie den Anfragetext in einem dieser Formate: {types}.',
    es: 'Envíe el cuerpo de la solicitud en uno de estos formatos: {types}.',
  },
  'error.payload_too_large': {
    en: 'The request body is too large.',
    'zh-Hans': '请求正文过大。',
    'zh-Hant': '請求內文過大。',
    fr: 'Le corps de la requête est trop volumineux.',
    de: 'Der Anfragetext ist zu groß.',
    es: 'El cuerpo de la solicitud es demasiado grande.',
  },
  'error.query_too_large': {
    en: 'The GraphQL query is too large: at most {limit} bytes.',
    'zh-Hans': 'GraphQL 查询过大：最多 {limit} 字节。',
    'zh-Hant': 'GraphQL 查詢過大：最多 {limit} 位元組。',
    fr: 'La requête GraphQL est trop volumineuse : {limit} octets au plus.',
    de: 'Die GraphQL-Abfrage ist zu groß: höchstens {limit} Bytes.',
    es: 'La consulta GraphQL es demasiado grande: como máximo {limit} bytes.',
  },
  'error.query_too_complex': {
    en: 'The GraphQL query costs {cost}, more than the {limit} allowed: ask for fewer fields, smaller pages or fewer aliases.',
    'zh-Hans': 'GraphQL 查询的开销为 {cost}，超过允许的 {limit}：请减少字段、缩小分页或减少别名。',
    'zh-Hant': 'GraphQL 查詢的成本為 {cost}，超過允許的 {limit}：請減少欄位、縮小分頁或減少別名。',
    fr: "La requête GraphQL coûte {cost}, plus que les {limit} permis : demandez moins de champs, des pages plus petites ou moins d'alias.",
    de: 'Die GraphQL-Abfrage kostet {cost}, mehr als die erlaubten {limit}: Fragen Sie weniger Felder, kleinere Seiten oder weniger Aliase ab.',
    es: 'La consulta GraphQL cuesta {cost}, más de los {limit} permitidos: pida menos campos, páginas más pequeñas o menos alias.',
  },
  'error.too_many_aliases': {
    en: 'The GraphQL query uses {count} aliases; at most {limit} are allowed.',
    'zh-Hans': 'GraphQL 查询使用了 {count} 个别名；最多允许 {limit} 个。',
    'zh-Hant': 'GraphQL 查詢使用了 {count} 個別名；最多允許 {limit} 個。',
    fr: 'La requête GraphQL utilise {count} alias ; {limit} au plus sont permis.',
    de: 'Die GraphQL-Abfrage verwendet {count} Aliase; höchstens {limit} sind erlaubt.',
    es: 'La consulta GraphQL usa {count} alias; se permiten como máximo {limit}.',
  },
  'error.too_many_mutations': {
    en: 'The GraphQL request holds {count} mutations; at most {limit} are allowed in one request.',
    'zh-Hans': 'GraphQL 请求包含 {count} 个变更操作；每个请求最多允许 {limit} 个。',
    'zh-Hant': 'GraphQL 請求包含 {count} 個變更操作；每個請求最多允許 {limit} 個。',
    fr: 'La requête GraphQL contient {count} mutations ; {limit} au plus sont permises par requête.',
    de: 'Die GraphQL-Anfrage enthält {count} Mutationen; höchstens {limit} sind pro Anfrage erlaubt.',
    es: 'La solicitud GraphQL contiene {count} mutaciones; se permiten como máximo {limit} por solicitud.',
  },
  'error.query_too_deep': {
    en: 'The GraphQL query is nested {depth} levels deep; at most {limit} are allowed.',
    'zh-Hans': 'GraphQL 查询嵌套了 {depth} 层；最多允许 {limit} 层。',
    'zh-Hant': 'GraphQL 查詢巢狀了 {depth} 層；最多允許 {limit} 層。',
    fr: 'La requête GraphQL est imbriquée sur {depth} niveaux ; {limit} au plus sont permis.',
    de: 'Die GraphQL-Abfrage ist {depth} Ebenen tief verschachtelt; höchstens {limit} sind erlaubt.',
    es: 'La consulta GraphQL está anidada en {depth} niveles; se permiten como máximo {limit}.',
  },
  'error.response_too_large': {
    en: 'The answer would be larger than {limit} bytes: ask for fewer fields or smaller pages.',
    'zh-Hans': '响应将超过 {limit} 字节：请减少字段或缩小分页。',
    'zh-Hant': '回應將超過 {limit} 位元組：請減少欄位或縮小分頁。',
    fr: 'La réponse dépasserait {limit} octets : demandez moins de champs ou des pages plus petites.',
    de: 'Die Antwort wäre größer als {limit} Bytes: Fragen Sie weniger Felder oder kleinere Seiten ab.',
    es: 'La respuesta superaría {limit} bytes: pida menos campos o páginas más pequeñas.',
  },
  'error.conflict': {
    en: 'The request conflicts with the current state.',
    'zh-Hans': '请求与当前状态冲突。',
    'zh-Hant': '請求與目前狀態衝突。',
    fr: "La requête est en conflit avec l'état actuel.",
    de: 'Die Anfrage steht im Widerspruch zum aktuellen Zustand.',
    es: 'La solicitud entra en conflicto con el estado actual.',
  },
  'error.too_many_attempts': {
    en: 'Too many wrong codes: code checks are locked for {seconds} seconds, even with the right code.',
    'zh-Hans': '错误代码次数过多：代码校验已锁定 {seconds} 秒，即使输入正确代码也无效。',
    'zh-Hant': '錯誤代碼次數過多：代碼校驗已鎖定 {seconds} 秒，即使輸入正確代碼也無效。',
    fr: 'Trop de codes erronés : la vérification est bloquée pendant {seconds} secondes, même avec le bon code.',
    de: 'Zu viele falsche Codes: Die Prüfung ist für {seconds} Sekunden gesperrt, auch für den richtigen Code.',
    es: 'Demasiados códigos erróneos: la comprobación está bloqueada durante {seconds} segundos, incluso con el código correcto.',
  },
  'error.rate_limited': {
    en: 'Too many requests: try again in {seconds} seconds.',
    'zh-Hans': '请求过多：请在 {seconds} 秒后重试。',
    'zh-Hant': '請求過多：請在 {seconds} 秒後再試。',
    fr: 'Trop de requêtes : réessayez dans {seconds} secondes.',
    de: 'Zu viele Anfragen: Versuchen Sie es in {seconds} Sekunden erneut.',
    es: 'Demasiadas solicitudes: inténtelo de nuevo en {seconds} segundos.',
  },
  'error.sign_in_locked': {
    en: 'Too many failed sign-ins for this email: try again in {seconds} seconds.',
    'zh-Hans': '该邮箱登录失败次数过多：请在 {seconds} 秒后重试。',
    'zh-Hant': '此電子郵件登入失敗次數過多：請在 {seconds} 秒後再試。',
    fr: 'Trop de connexions échouées pour cette adresse e-mail : réessayez dans {seconds} secondes.',
    de: 'Zu viele fehlgeschlagene Anmeldungen für diese E-Mail-Adresse: Versuchen Sie es in {seconds} Sekunden erneut.',
    es: 'Demasiados inicios de sesión fallidos para este correo: inténtelo de nuevo en {seconds} segundos.',
  },
  'error.internal': {
    en: 'An internal error occurred.',
    'zh-Hans': '发生内部错误。',
    'zh-Hant': '發生內部錯誤。',
    fr: "Une erreur interne s'est produite.",
    de: 'Ein interner Fehler ist aufgetreten.',
    es: 'Se produjo un error interno.',
  },
  'field.required': {
    en: 'This field is required.',
    'zh-Hans': '此字段为必填项。',
    'zh-Hant': '此欄位為必填。',
    fr: 'Ce champ est obligatoire.',
    de: 'Dieses Feld ist erforderlich.',
    es: 'Este campo es obligatorio.',
  },
  'field.invalid_type': {
    en: 'Expected {expected}.',
    'zh-Hans': '应为 {expected}。',
    'zh-Hant': '應為 {expected}。',
    fr: 'Valeur attendue : {expected}.',
    de: 'Erwartet: {expected}.',
    es: 'Se esperaba {expected}.',
  },
  'field.too_long': {
    en: 'Must be at most {maximum} characters.',
    'zh-Hans': '最多 {maximum} 个字符。',
    'zh-Hant': '最多 {maximum} 個字元。',
    fr: 'Doit contenir au plus {maximum} caractères.',
    de: 'Darf höchstens {maximum} Zeichen lang sein.',
    es: 'Debe tener como máximo {maximum} caracteres.',
  },
  'field.too_short': {
    en: 'Must be at least {minimum} characters.',
    'zh-Hans': '至少 {minimum} 个字符。',
    'zh-Hant': '至少 {minimum} 個字元。',
    fr: 'Doit contenir au moins {minimum} caractères.',
    de: 'Muss mindestens {minimum} Zeichen lang sein.',
    es: 'Debe tener al menos {minimum} caracteres.',
  },
  'field.too_big': {
    en: 'Must be at most {maximum}.',
    'zh-Hans': '不得大于 {maximum}。',
    'zh-Hant': '不得大於 {maximum}。',
    fr: 'Doit être au plus {maximum}.',
    de: 'Darf höchstens {maximum} sein.',
    es: 'Debe ser como máximo {maximum}.',
  },
  'field.too_small': {
    en: 'Must be at least {minimum}.',
    'zh-Hans': '不得小于 {minimum}。',
    'zh-Hant': '不得小於 {minimum}。',
    fr: 'Doit être au moins {minimum}.',
    de: 'Muss mindestens {minimum} sein.',
    es: 'Debe ser como mínimo {minimum}.',
  },
  'field.too_many_items': {
    en: 'Must contain at most {maximum} items.',
    'zh-Hans': '最多包含 {maximum} 项。',
    'zh-Hant': '最多包含 {maximum} 項。',
    fr: 'Doit contenir au plus {maximum} éléments.',
    de: 'Darf höchstens {maximum} Einträge enthalten.',
    es: 'Debe contener como máximo {maximum} elementos.',
  },
  'field.too_few_items': {
    en: 'Must contain at least {minimum} items.',
    'zh-Hans': '至少包含 {minimum} 项。',
    'zh-Hant': '至少包含 {minimum} 項。',
    fr: 'Doit contenir au moins {minimum} éléments.',
    de: 'Muss mindestens {minimum} Einträge enthalten.',
    es: 'Debe contener al menos {minimum} elementos.',
  },
  'field.invalid_value': {
    en: 'Must be one of: {values}.',
    'zh-Hans': '必须是以下值之一：{values}。',
    'zh-Hant': '必須是下列值之一：{values}。',
    fr: "Doit être l'une des valeurs : {values}.",
    de: 'Muss einer dieser Werte sein: {values}.',
    es: 'Debe ser uno de: {values}.',
  },
  'field.invalid_format': {
    en: 'Has an invalid format (expected {format}).',
    'zh-Hans': '格式无效（应为 {format}）。',
    'zh-Hant': '格式無效（應為 {format}）。',
    fr: 'Format invalide (attendu : {format}).',
    de: 'Ungültiges Format (erwartet: {format}).',
    es: 'Formato no válido (se esperaba {format}).',
  },
  'field.unknown': {
    en: 'This field is not accepted.',
    'zh-Hans': '不接受此字段。',
    'zh-Hant': '不接受此欄位。',
    fr: "Ce champ n'est pas accepté.",
    de: 'Dieses Feld wird nicht akzeptiert.',
    es: 'Este campo no se acepta.',
  },
  'field.invalid_characters': {
    en: 'Contains a control character or an unpaired surrogate, which no text here may hold.',
    'zh-Hans': '包含控制字符或不成对的代理项，此处的文本不允许包含。',
    'zh-Hant': '包含控制字元或不成對的代理項，此處的文字不允許包含。',
    fr: 'Contient un caractère de contrôle ou un demi-codet isolé, interdits dans tout texte ici.',
    de: 'Enthält ein Steuerzeichen oder ein einzelnes Surrogat, das hier in keinem Text erlaubt ist.',
    es: 'Contiene un carácter de control o un sustituto sin pareja, que ningún texto aquí puede llevar.',
  },
  'field.too_deep': {
    en: 'Nests objects and arrays more than {limit} levels deep; at most {limit} are allowed.',
    'zh-Hans': '对象和数组嵌套超过 {limit} 层；最多允许 {limit} 层。',
    'zh-Hant': '物件和陣列巢狀超過 {limit} 層；最多允許 {limit} 層。',
    fr: 'Imbrique objets et tableaux sur plus de {limit} niveaux ; {limit} au plus sont permis.',
    de: 'Verschachtelt Objekte und Arrays mehr als {limit} Ebenen tief; höchstens {limit} sind erlaubt.',
    es: 'Anida objetos y arreglos en más de {limit} niveles; se permiten como máximo {limit}.',
  },
  'field.time_out_of_range': {
    en: 'Must be a time in the years 1000 to 9999.',
    'zh-Hans': '必须是 1000 年至 9999 年之间的时间。',
    'zh-Hant': '必須是 1000 年至 9999 年之間的時間。',
    fr: 'Doit être une date entre les années 1000 et 9999.',
    de: 'Muss ein Zeitpunkt in den Jahren 1000 bis 9999 sein.',
    es: 'Debe ser una fecha entre los años 1000 y 9999.',
  },
  'field.invalid': {
    en: 'This value is invalid.',
    'zh-Hans': '此值无效。',
    'zh-Hant': '此值無效。',
    fr: 'Cette valeur est invalide.',
    de: 'Dieser Wert ist ungültig.',
    es: 'Este valor no es válido.',
  },
} satisfies Messages;

/** The keys modules add: each module's messages.ts merges its own keys into this interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleMessageKeys {}

export type MessageKey = keyof typeof PLATFORM_MESSAGES | keyof ModuleMessageKeys;
export type MessageParams = Record<string, string | number>;

const catalog = new Map<string, Translations>(Object.entries(PLATFORM_MESSAGES));

/** Adds a module's messages; a key defined twice is a programming error, found at start-up. */
export function registerMessages(messages: Messages): void {
  for (const [key, translations] of Object.entries(messages)) {
    if (catalog.has(key) && catalog.get(key) !== translations) throw new Error(`message ${key} is defined twice`);
    catalog.set(key, translations);
  }
}

/** Every registered message, for the test that checks each has every language. */
export function allMessages(): ReadonlyMap<string, Translations> {
  return catalog;
}

export function translate(key: MessageKey, lang: Language, params: MessageParams = {}): string {
  const text = catalog.get(key)?.[lang];
  if (text === undefined) throw new Error(`message ${key} is not registered`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
