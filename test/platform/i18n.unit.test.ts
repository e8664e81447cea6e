import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES, pickLanguage } from '../../src/platform/i18n/languages.ts';
import { allMessages, translate } from '../../src/platform/i18n/messages.ts';
import { MODULES } from '../../src/modules/index.ts';

test('every message key has a non-empty text in all six languages', () => {
  assert.ok(
    MODULES.length > 0 && allMessages().has('device_order.wrong_pickup_code'),
    'the modules registered their messages',
  );
  for (const [key, texts] of allMessages()) {
    for (const lang of LANGUAGES) {
      const text = texts[lang];
      assert.ok(typeof text === 'string' && text.trim().length > 0, `${key} lacks ${lang}`);
    }
    const placeholders = (s: string) =>
      [...s.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .sort()
        .join(',');
    for (const lang of LANGUAGES)
      assert.equal(
        placeholders(texts[lang]),
        placeholders(texts.en),
        `${key} ${lang} placeholders differ from English`,
      );
  }
});

test('Accept-Language picks the best supported language by q-value', () => {
  assert.equal(pickLanguage(undefined), 'en');
  assert.equal(pickLanguage(''), 'en');
  assert.equal(pickLanguage('ja'), 'en');
  assert.equal(pickLanguage('fr-CA'), 'fr');
  assert.equal(pickLanguage('de;q=0.5, es;q=0.9'), 'es');
  assert.equal(pickLanguage('ja, de;q=0.1'), 'de');
  assert.equal(pickLanguage('zh-CN'), 'zh-Hans');
  assert.equal(pickLanguage('zh-TW'), 'zh-Hant');
  assert.equal(pickLanguage('zh-Hant-HK'), 'zh-Hant');
  assert.equal(pickLanguage('fr;q=0, es'), 'es');
});

test('translate fills placeholders', () => {
  assert.equal(translate('field.too_long', 'en', { maximum: 500 }), 'Must be at most 500 characters.');
});
