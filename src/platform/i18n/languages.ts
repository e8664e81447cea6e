export const LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'fr', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Maps a request tag to a supported language: zh-CN and zh-SG read Simplified, zh-TW/HK/MO Traditional. */
function match(tag: string): Language | null {
  const t = tag.toLowerCase();
  if (t === '*') return 'en';
  if (t.startsWith('zh')) {
    if (/^zh-(hant|tw|hk|mo)\b/.test(t)) return 'zh-Hant';
    return 'zh-Hans';
  }
  const base = t.split('-')[0];
  return LANGUAGES.find((l) => l === base) ?? null;
}

/** Picks the best supported language from an Accept-Language header, honouring q-values; English otherwise. */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.tag && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const r of ranked) {
    const lang = match(r.tag);
    if (lang) return lang;
  }
  return 'en';
}
