import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

export type FileErrorScreenProps = {
  /** notFound: the server answered below 500 (or the path maps to nothing); error: otherwise. */
  kind: 'notFound' | 'error';
  /** The error's own message, shown on the error screen instead of the generic text. */
  message?: string;
};

/** The not-found and error screens of the file viewer (product §B8), with back and go-to-main. */
export function FileErrorScreen({ kind, message }: FileErrorScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Result
      status={kind === 'notFound' ? '404' : '500'}
      title={kind === 'notFound' ? t('files.notFound') : (message ?? t('files.error'))}
      data-testid={kind === 'notFound' ? 'file-not-found' : 'file-error'}
      extra={[
        <Button
          key="back"
          onClick={() => {
            if (location.key !== 'default') void navigate(-1);
            else void navigate('/dashboard');
          }}
          data-testid="file-back"
        >
          {t('files.back')}
        </Button>,
        <Button
          key="main"
          type="primary"
          onClick={() => void navigate('/dashboard')}
          data-testid="file-to-main"
        >
          {t('files.toMain')}
        </Button>,
      ]}
    />
  );
}
