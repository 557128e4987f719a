import { SafetyCertificateFilled } from '@ant-design/icons';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePortalConfig, usePortalName } from '../config/PortalConfigContext.tsx';

export type BrandLogoProps = {
  /** `large` on the login screen, `default` in the header. */
  size?: 'default' | 'large';
  /** Show the portal name next to the mark. */
  showName?: boolean;
};

/** The deployment's logo (portal config `logo_url`), or a shield mark in the primary colour. */
export function BrandLogo({ size = 'default', showName = true }: BrandLogoProps) {
  const config = usePortalConfig();
  const portalName = usePortalName();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const markSize = size === 'large' ? token.sizeXXL : token.sizeXL;
  const nameStyle = {
    margin: 0,
    color: token.colorText,
    fontWeight: token.fontWeightStrong,
    fontSize: size === 'large' ? token.fontSizeHeading3 : token.fontSizeLG,
  };

  return (
    <Flex align="center" gap={token.sizeXS}>
      {config?.logo_url ? (
        <img
          src={config.logo_url}
          alt={showName ? '' : t('app.logoAlt', { portalName })}
          style={{ height: markSize, width: 'auto', display: 'block' }}
        />
      ) : (
        <SafetyCertificateFilled aria-hidden style={{ fontSize: markSize, color: token.colorPrimary }} />
      )}
      {showName && (
        // a plain span: antd's Typography would pull its editor and tooltip into the shell
        <span style={nameStyle}>{portalName}</span>
      )}
    </Flex>
  );
}
