import type { Messages } from '../../platform/i18n/messages.ts';

export const POD_FILE_MESSAGES = {
  'pod_file.empty': {
    en: 'The body is empty: send the image file itself.',
    'zh-Hans': '请求正文为空：请发送图片文件本身。',
    'zh-Hant': '請求內文為空：請傳送圖片檔案本身。',
    fr: 'Le corps est vide : envoyez le fichier image lui-même.',
    de: 'Der Anfragetext ist leer: Senden Sie die Bilddatei selbst.',
    es: 'El cuerpo está vacío: envíe el archivo de imagen.',
  },
  'pod_file.not_image': {
    en: 'The file is not a {type} image.',
    'zh-Hans': '该文件不是 {type} 图片。',
    'zh-Hant': '該檔案不是 {type} 圖片。',
    fr: "Le fichier n'est pas une image {type}.",
    de: 'Die Datei ist kein {type}-Bild.',
    es: 'El archivo no es una imagen {type}.',
  },
  'pod_file.link_invalid': {
    en: 'This download link is expired or not valid; ask for a new one.',
    'zh-Hans': '此下载链接已过期或无效，请重新获取。',
    'zh-Hant': '此下載連結已過期或無效，請重新取得。',
    fr: "Ce lien de téléchargement a expiré ou n'est pas valide ; demandez-en un nouveau.",
    de: 'Dieser Download-Link ist abgelaufen oder ungültig; fordern Sie einen neuen an.',
    es: 'Este enlace de descarga caducó o no es válido; solicite uno nuevo.',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof POD_FILE_MESSAGES, true> {}
}
