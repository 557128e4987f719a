import type { Language } from '@soc/contracts';
import { Button, Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

export type DocumentLanguageControlProps = {
  value: Language;
  onChange: (language: Language) => void;
  /** Loading the languages in which documents exist failed. */
  languagesFailed: boolean;
  onRetryLanguages: () => void;
};

/**
 * The document language filter. When the list of languages could not be loaded, a retry link
 * ('Повторить загрузку', product §B8) sits beside it.
 */
export function DocumentLanguageControl({
  value,
  onChange,
  languagesFailed,
  onRetryLanguages,
}: DocumentLanguageControlProps) {
  const { t } = useTranslation();
  return (
    <Flex align="center" gap="small">
      <Select<Language>
        data-testid="documents-language"
        aria-label={t('docs.filters.language')}
        title={t('docs.filters.language')}
        value={value}
        onChange={onChange}
        options={(['ru', 'en'] as const).map((language) => ({
          value: language,
          label: t(`docs.languages.${language}`),
        }))}
        style={{ minWidth: '9rem' }}
      />
      {languagesFailed && (
        <Flex align="center" gap="small" role="alert" data-testid="documents-languages-failed">
          <Typography.Text type="danger">{t('docs.filters.languagesFailed')}</Typography.Text>
          <Button
            type="link"
            size="small"
            style={{ paddingInline: 0 }}
            onClick={onRetryLanguages}
            data-testid="documents-languages-retry"
          >
            {t('docs.filters.retryLanguages')}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
