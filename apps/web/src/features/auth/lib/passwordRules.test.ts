import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/shared/i18n/i18n.ts';
import { newPasswordRules } from './passwordRules.ts';

/** The messages the rules with validators give for a value (none: accepted). */
async function refusals(value: string): Promise<string[]> {
  const rules = newPasswordRules(i18n.t.bind(i18n)) as RuleObject[];
  const messages: string[] = [];
  for (const rule of rules) {
    if (!rule.validator) continue;
    try {
      await rule.validator(rule, value, () => undefined);
    } catch (err) {
      messages.push((err as Error).message);
    }
  }
  return messages;
}

describe('newPasswordRules', () => {
  it('refuse white space only and control characters, with the texts of the field', async () => {
    expect(await refusals('            ')).toEqual(['The password may not be only spaces']);
    expect(await refusals('Granite\u0000Orchid-4417')).toEqual([
      'The password contains control characters, which are not allowed',
    ]);
    expect(await refusals('Granite\tOrchid-4417')).toHaveLength(1);
    expect(await refusals('Granite-Orchid-4417')).toEqual([]);
  });

  it('speak Russian in Russian', async () => {
    await i18n.changeLanguage('ru');
    expect(await refusals('            ')).toEqual(['Пароль не может состоять из одних пробелов']);
  });
});
