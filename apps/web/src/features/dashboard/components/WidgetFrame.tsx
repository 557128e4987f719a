import {
  DeleteOutlined,
  EditOutlined,
  ExpandOutlined,
  HolderOutlined,
  MoreOutlined,
} from '@ant-design/icons';
import { WIDGET_CHART_TYPES, WIDGET_TITLE_MAX, type ChartType, type WidgetKind } from '@soc/contracts';
import { Button, Card, Dropdown, Form, Input, Modal, type MenuProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type WidgetFrameProps = {
  id: string;
  kind: WidgetKind;
  title: string;
  chart: ChartType;
  /** On the grid: a drag handle; stacked in the phone's one column there is nothing to drag. */
  movable?: boolean;
  onRename: (title: string) => void;
  onRemove: () => void;
  onChartType: (chart: ChartType) => void;
  /** The widget's content; `fullScreen` is true inside the full-screen view. */
  children: (fullScreen: boolean) => ReactNode;
};

/** A dashboard widget: a card with a drag handle and a menu (full screen, rename, chart type, delete). */
export function WidgetFrame({
  id,
  kind,
  title,
  chart,
  movable = true,
  onRename,
  onRemove,
  onChartType,
  children,
}: WidgetFrameProps) {
  const { t } = useTranslation();
  const [fullScreen, setFullScreen] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [form] = Form.useForm<{ title: string }>();
  const types = WIDGET_CHART_TYPES[kind];

  const items: MenuProps['items'] = [
    { key: 'full', icon: <ExpandOutlined />, label: t('dashboard.widget.fullScreen') },
    { key: 'rename', icon: <EditOutlined />, label: t('dashboard.widget.rename') },
    ...(types.length > 1
      ? [
          {
            key: 'type',
            label: t('dashboard.widget.chartType'),
            type: 'group' as const,
            children: types.map((type) => ({
              key: `type:${type}`,
              label: t(`dashboard.chartTypes.${type}`),
              disabled: type === chart,
            })),
          },
        ]
      : []),
    { type: 'divider' as const },
    { key: 'remove', icon: <DeleteOutlined />, danger: true, label: t('dashboard.widget.remove') },
  ];

  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'full') setFullScreen(true);
    else if (key === 'rename') {
      form.setFieldsValue({ title });
      setRenaming(true);
    } else if (key === 'remove') onRemove();
    else if (key.startsWith('type:')) onChartType(key.slice(5) as ChartType);
  };

  return (
    <Card
      size="small"
      data-testid={`widget-${id}`}
      data-kind={kind}
      data-chart={chart}
      style={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      styles={{ body: { flex: 1, minHeight: 0, overflow: 'hidden', position: 'relative' } }}
      title={
        movable ? (
          <span
            className="dashboard-drag-handle"
            style={{ cursor: 'move' }}
            title={t('dashboard.widget.drag')}
          >
            <HolderOutlined aria-hidden style={{ marginInlineEnd: 6 }} />
            <span data-testid={`widget-${id}-title`}>{title}</span>
          </span>
        ) : (
          <span data-testid={`widget-${id}-title`}>{title}</span>
        )
      }
      extra={
        <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']}>
          <Button
            type="text"
            size="small"
            icon={<MoreOutlined />}
            aria-label={t('dashboard.widget.menu', { title })}
            data-testid={`widget-${id}-menu`}
            className="dashboard-no-drag"
          />
        </Dropdown>
      }
    >
      {/* a widget taller than its cell scrolls, and a scrolled region takes the keyboard focus */}
      <div
        tabIndex={0}
        role="group"
        aria-label={title}
        style={{ height: '100%', overflow: 'auto' }}
        data-testid={`widget-${id}-body`}
      >
        {children(false)}
      </div>
      <Modal
        open={fullScreen}
        title={title}
        onCancel={() => setFullScreen(false)}
        footer={null}
        width="96vw"
        style={{ top: 16 }}
        styles={{ body: { height: 'calc(100vh - 120px)', overflow: 'auto' } }}
        destroyOnHidden
      >
        <div style={{ height: '100%' }} data-testid={`widget-${id}-fullscreen`}>
          {children(true)}
        </div>
      </Modal>
      <Modal
        open={renaming}
        title={t('dashboard.rename.title')}
        okText={t('dashboard.rename.save')}
        cancelText={t('common.cancel')}
        onCancel={() => setRenaming(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) => {
            onRename(values.title.trim());
            setRenaming(false);
          }}
        >
          <Form.Item
            name="title"
            label={t('dashboard.rename.label')}
            rules={[{ required: true, whitespace: true, message: t('dashboard.rename.required') }]}
          >
            <Input maxLength={WIDGET_TITLE_MAX} autoFocus data-testid="widget-title-input" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
