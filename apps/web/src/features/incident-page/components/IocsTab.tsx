import type { Ioc } from '@soc/contracts';
import { groupIocs } from '@soc/contracts';
import { Card, Empty, Flex, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { wrapText } from '@/shared/lib/wrapText.ts';
import '../../alerts/index.ts';
import { AddIocButton, RemoveIocButton } from './StaffIocControls.tsx';

export type IocsTabProps = {
  iocs: Ioc[];
  /** Staff add and remove IOCs of this incident; customers get none of it. */
  staffIncidentKey?: number;
};

/**
 * Identified IOCs grouped by type, each value and each group copyable (product §A2); for staff,
 * "Add IOC" and a remove button on each.
 */
export function IocsTab({ iocs, staffIncidentKey }: IocsTabProps) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap="middle" data-testid="incident-iocs">
      {staffIncidentKey !== undefined && (
        <div>
          <AddIocButton incidentKey={staffIncidentKey} iocs={iocs} />
        </div>
      )}
      {staffIncidentKey !== undefined && iocs.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('incidentPage.staffAdd.noIocs')} />
      )}
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
                  {staffIncidentKey !== undefined && (
                    <RemoveIocButton incidentKey={staffIncidentKey} iocs={iocs} ioc={item} />
                  )}
                </Flex>
              </List.Item>
            )}
          />
        </Card>
      ))}
    </Flex>
  );
}
