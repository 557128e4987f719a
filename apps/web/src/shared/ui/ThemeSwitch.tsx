import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme/ThemeModeContext.tsx';

/** Light/dark switch; `checked` means dark. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { mode, setMode } = useThemeMode();
  return (
    <Switch
      checked={mode === 'dark'}
      onChange={(checked) => setMode(checked ? 'dark' : 'light')}
      checkedChildren={<MoonOutlined aria-hidden />}
      unCheckedChildren={<SunOutlined aria-hidden />}
      aria-label={t('header.darkTheme')}
      data-testid="theme-switch"
      data-theme-mode={mode}
    />
  );
}
