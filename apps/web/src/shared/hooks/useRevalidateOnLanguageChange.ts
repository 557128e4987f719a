import type { FormInstance } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * Re-runs the client rules of fields that currently show errors when the language changes, so
 * that their messages are re-translated instead of staying in the previous language. Fields
 * listed in `skip` (e.g. ones holding server messages, which rules would wipe) are left alone.
 *
 * @param skip a stable set (module constant): field names joined with dots.
 */
export function useRevalidateOnLanguageChange(
  form: FormInstance,
  skip: ReadonlySet<string> = NO_FIELDS,
): void {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const previous = useRef(language);

  useEffect(() => {
    if (previous.current === language) return;
    previous.current = language;
    const withErrors = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0 && !skip.has(field.name.join('.')))
      .map((field) => field.name);
    if (withErrors.length > 0) form.validateFields(withErrors).catch(() => undefined);
  }, [language, form, skip]);
}
