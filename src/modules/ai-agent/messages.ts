import type { Messages } from '../../platform/i18n/messages.ts';

export const AI_AGENT_MESSAGES = {
  'ai_agent.not_configured': {
    en: 'The Operations AI Agent is not set up on this service: no model is configured. Ask the platform operator.',
    'zh-Hans': '本服务尚未设置运营 AI 助手：未配置模型。请联系平台运营方。',
    'zh-Hant': '本服務尚未設定營運 AI 助理：未設定模型。請聯絡平台營運方。',
    fr: "L'agent IA des opérations n'est pas configuré sur ce service : aucun modèle n'est défini. Adressez-vous à l'opérateur de la plateforme.",
    de: 'Der KI-Agent für den Betrieb ist auf diesem Dienst nicht eingerichtet: Es ist kein Modell konfiguriert. Wenden Sie sich an den Betreiber der Plattform.',
    es: 'El agente de IA de operaciones no está configurado en este servicio: no hay ningún modelo definido. Consulte al operador de la plataforma.',
  },
  'ai_agent.daily_cap_reached': {
    en: 'Your business has used all {cap} Operations AI Agent turns for today. Try again in {seconds} seconds, when its next day starts.',
    'zh-Hans': '您的企业今天已用完全部 {cap} 次运营 AI 助手对话。请在 {seconds} 秒后（新的一天开始时）再试。',
    'zh-Hant': '您的企業今天已用完全部 {cap} 次營運 AI 助理對話。請在 {seconds} 秒後（新的一天開始時）再試。',
    fr: "Votre entreprise a utilisé les {cap} échanges du jour avec l'agent IA des opérations. Réessayez dans {seconds} secondes, quand commence son jour suivant.",
    de: 'Ihr Unternehmen hat alle {cap} Runden des KI-Agenten für heute verbraucht. Versuchen Sie es in {seconds} Sekunden wieder, wenn sein nächster Tag beginnt.',
    es: 'Su empresa ha usado los {cap} turnos de hoy del agente de IA de operaciones. Vuelva a intentarlo en {seconds} segundos, cuando empiece su día siguiente.',
  },
  'ai_agent.model_failed': {
    en: 'The Operations AI Agent could not get an answer from its model. The turn was not counted; try again later.',
    'zh-Hans': '运营 AI 助手未能从其模型获得回答。本次对话未计数；请稍后再试。',
    'zh-Hant': '營運 AI 助理未能從其模型取得回答。本次對話未計數；請稍後再試。',
    fr: "L'agent IA des opérations n'a pas obtenu de réponse de son modèle. L'échange n'a pas été compté ; réessayez plus tard.",
    de: 'Der KI-Agent für den Betrieb hat von seinem Modell keine Antwort erhalten. Die Runde wurde nicht gezählt; versuchen Sie es später erneut.',
    es: 'El agente de IA de operaciones no obtuvo respuesta de su modelo. El turno no se ha contado; vuelva a intentarlo más tarde.',
  },
  'ai_agent.step_limit': {
    en: 'The agent stopped after {calls} steps without a final answer. Ask again more narrowly.',
    'zh-Hans': '助手在 {calls} 步后停止，未给出最终回答。请把问题问得更具体一些。',
    'zh-Hant': '助理在 {calls} 步後停止，未給出最終回答。請把問題問得更具體一些。',
    fr: "L'agent s'est arrêté après {calls} étapes sans réponse finale. Reformulez la question de façon plus précise.",
    de: 'Der Agent hat nach {calls} Schritten ohne abschließende Antwort aufgehört. Fragen Sie genauer.',
    es: 'El agente se detuvo tras {calls} pasos sin una respuesta final. Pregunte de forma más concreta.',
  },
  'ai_agent.proposed': {
    en: 'Waiting for approval (nothing is changed until a person of the business approves it): {proposals}.',
    'zh-Hans': '等待审批（在企业人员批准之前不会做任何更改）：{proposals}。',
    'zh-Hant': '等待審批（在企業人員核准之前不會做任何變更）：{proposals}。',
    fr: "En attente d'approbation (rien n'est modifié tant qu'une personne de l'entreprise ne l'a pas approuvé) : {proposals}.",
    de: 'Wartet auf Freigabe (nichts wird geändert, bis eine Person des Unternehmens zustimmt): {proposals}.',
    es: 'Pendiente de aprobación (no se cambia nada hasta que una persona de la empresa lo apruebe): {proposals}.',
  },
  'ai_agent.proposal': {
    en: '{tool} (approval {id})',
    'zh-Hans': '{tool}（审批 {id}）',
    'zh-Hant': '{tool}（審批 {id}）',
    fr: '{tool} (approbation {id})',
    de: '{tool} (Freigabe {id})',
    es: '{tool} (aprobación {id})',
  },
} satisfies Messages;

declare module '../../platform/i18n/messages.ts' {
  interface ModuleMessageKeys extends Record<keyof typeof AI_AGENT_MESSAGES, true> {}
}
