import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { StatusScreen } from '../StatusScreen.tsx';
import './i18n/texts.ts';

/**
 * What a customer who opens an address of the staff area sees (design §9): the page is not
 * available, with the way back to the dashboard. The page that shows it sends no analyst call.
 */
export function StaffNotAvailable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('staffArea.notAvailable.title'));
  return (
    <StatusScreen
      status="warning"
      title={t('staffArea.notAvailable.title')}
      subTitle={t('staffArea.notAvailable.text')}
      extra={
        <Button type="primary" onClick={() => void navigate('/dashboard')}>
          {t('staffArea.notAvailable.home')}
        </Button>
      }
      data-testid="soc-not-available"
    />
  );
}
