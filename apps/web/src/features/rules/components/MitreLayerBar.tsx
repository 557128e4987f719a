import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { ATTACK_LAYER_MAX_BYTES, parseAttackLayer, type AttackLayer } from '@soc/contracts';
import { Alert, Button, Flex, Tag, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/shared/ui/notifications.tsx';
import { useCoverageLayerDownload } from '../api/useCoverageLayerDownload.ts';
import type { LayerOverlay } from '../lib/layerOverlay.ts';
import '../i18n/texts.ts';

/** Gap ids listed in the overlay's notice; the rest are counted. */
const LISTED_GAPS = 40;

export type MitreLayerBarProps = {
  /** The rule filters of the matrix (the downloaded layer has the same). */
  filters: URLSearchParams;
  overlay: LayerOverlay | null;
  onLayer: (layer: AttackLayer | null) => void;
};

/**
 * Rules → MITRE's ATT&CK Navigator tools: download the coverage as a layer, and compare with a
 * layer (e.g. a threat group's techniques): its techniques without a matching rule are gaps.
 */
export function MitreLayerBar({ filters, overlay, onLayer }: MitreLayerBarProps) {
  const { t } = useTranslation();
  const download = useCoverageLayerDownload();

  const read = async (file: File) => {
    if (file.size > ATTACK_LAYER_MAX_BYTES) {
      notifyError({ title: t('rules.layer.readFailed'), description: t('rules.layer.errors.too-large') });
      return;
    }
    const parsed = parseAttackLayer(await file.text());
    if (!parsed.ok) {
      notifyError({
        title: t('rules.layer.readFailed'),
        description: [t(`rules.layer.errors.${parsed.reason}`), ...(parsed.issues ?? [])],
      });
      return;
    }
    onLayer(parsed.layer);
  };

  return (
    <Flex vertical gap="small" data-testid="mitre-layer-bar">
      <Flex gap="small" wrap align="center">
        <Button
          icon={<DownloadOutlined aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate(filters)}
          data-testid="mitre-layer-download"
        >
          {t('rules.layer.download')}
        </Button>
        <Upload
          accept=".json,application/json"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            void read(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} data-testid="mitre-layer-compare">
            {t('rules.layer.compare')}
          </Button>
        </Upload>
        <Typography.Text type="secondary">{t('rules.layer.hint')}</Typography.Text>
      </Flex>
      {overlay && (
        <Alert
          type={overlay.gaps.length ? 'warning' : 'success'}
          showIcon
          data-testid="mitre-layer-overlay"
          data-gaps={overlay.gaps.length}
          title={t('rules.layer.summary', {
            name: overlay.name,
            count: overlay.scores.size,
            gaps: overlay.gaps.length,
          })}
          description={
            <Flex vertical gap={4}>
              {overlay.gaps.length > 0 && (
                <Flex wrap gap={4} align="center" data-testid="mitre-layer-gaps">
                  <Typography.Text>{t('rules.layer.gaps')}:</Typography.Text>
                  {overlay.gaps.slice(0, LISTED_GAPS).map((id) => (
                    <Tag key={id} color="error" data-testid="mitre-layer-gap">
                      {id}
                    </Tag>
                  ))}
                  {overlay.gaps.length > LISTED_GAPS && (
                    <Typography.Text type="secondary">
                      {t('rules.layer.more', { count: overlay.gaps.length - LISTED_GAPS })}
                    </Typography.Text>
                  )}
                </Flex>
              )}
              {overlay.unknown.length > 0 && (
                <Typography.Text type="secondary" data-testid="mitre-layer-unknown">
                  {t('rules.layer.unknown', {
                    count: overlay.unknown.length,
                    ids: overlay.unknown.slice(0, 10).join(', '),
                  })}
                </Typography.Text>
              )}
            </Flex>
          }
          action={
            <Button size="small" onClick={() => onLayer(null)} data-testid="mitre-layer-clear">
              {t('rules.layer.clear')}
            </Button>
          }
        />
      )}
    </Flex>
  );
}
