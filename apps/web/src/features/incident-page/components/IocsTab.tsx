import type { Ioc } from '@soc/contracts';
import { groupIocs } from '@soc/contracts';
import { Card, Flex, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { wrapText } from '@/shared/lib/wrapText.ts';
import '../../alerts/index.ts';

export type IocsTabProps = { iocs: Ioc[] };

/** Identified IOCs grouped by type, each value and each group copyable (product §A2). */
export function IocsTab({ iocs }: IocsTabProps) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle" data-testid="incident-iocs">
      {groupIocs(iocs).map((group) => (
        <Card
          key={group.type}
          size="small"
          data-testid={`ioc-group-${group.type}`}
          title={`${t(`alerts.iocs.types.${group.type}`)} (${group.items.length})`}
          extra={
            <Typography.Text
              copyable={{
                text: group.items.map((i) => i.ioc).join('\n'),
                tooltips: [t('alerts.iocs.copyAll'), t('alerts.iocs.copied')],
              }}
            />
          }
        >
          <List
            size="small"
            dataSource={group.items}
            renderItem={(item) => (
              <List.Item>
                <Flex gap="small" align="center" wrap style={{ width: '100%' }}>
                  <Typography.Text
                    code
                    copyable={{ tooltips: [t('alerts.iocs.copy'), t('alerts.iocs.copied')] }}
                    style={{ ...wrapText, flex: 1 }}
                  >
                    {item.ioc}
                  </Typography.Text>
                  {item.category.map((category) => (
                    <Tag key={category} style={{ ...wrapText, maxWidth: '100%' }}>
                      {category}
                    </Tag>
                  ))}
                </Flex>
              </List.Item>
            )}
          />
        </Card>
      ))}
    </Flex>
  );
}
