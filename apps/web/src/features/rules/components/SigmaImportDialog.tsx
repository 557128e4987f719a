import { FolderOpenOutlined, UploadOutlined } from '@ant-design/icons';
import {
  RULE_ACTIVATION_MODES,
  RULE_SERVICE_LEVELS,
  SIGMA_IMPORT_LIMITS,
  type RuleActivationMode,
  type RuleServiceLevel,
  type SigmaImportResult,
} from '@soc/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Modal,
  Progress,
  Radio,
  Statistic,
  Switch,
  Table,
  Tabs,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { formatFileSize } from '@/shared/lib/formatFileSize.ts';
import { notifyError } from '@/shared/ui/notifications.tsx';
import { useSigmaImportMutation } from '../api/useSigmaImportMutation.ts';
import '../i18n/texts.ts';

/** Why the chosen files cannot be sent as they are, or null. */
export function importProblem(files: readonly File[]): 'noFiles' | 'tooMany' | 'tooBig' | null {
  if (files.length === 0) return 'noFiles';
  if (files.length > SIGMA_IMPORT_LIMITS.files) return 'tooMany';
  const size = files.reduce((sum, file) => sum + file.size, 0);
  return size > SIGMA_IMPORT_LIMITS.uploadBytes ? 'tooBig' : null;
}

/** The rule files of a chosen folder: YAML and zip only (a release also holds READMEs, tests…). */
const isRuleFile = (file: File) => /\.(ya?ml|zip)$/i.test(file.name);

export type SigmaImportDialogProps = { open: boolean; onClose: () => void };

/**
 * The Sigma import (administrators, issue 41): files or a whole folder, the service levels and
 * activation of new rules, and a check that changes nothing; then what was imported, skipped
 * (with the reason) and refused (with the message), as `POST /admin/rules/import/` answers.
 */
export function SigmaImportDialog({ open, onClose }: SigmaImportDialogProps) {
  const { t } = useTranslation();
  const mutation = useSigmaImportMutation();
  const [files, setFiles] = useState<File[]>([]);
  const [services, setServices] = useState<RuleServiceLevel[]>([]);
  const [activation, setActivation] = useState<RuleActivationMode>('manual');
  const [dryRun, setDryRun] = useState(true);
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<SigmaImportResult | null>(null);
  const [shownProblem, setShownProblem] = useState(false);
  const busy = mutation.isPending;
  const problem = importProblem(files);
  const size = files.reduce((sum, file) => sum + file.size, 0);

  const add = (picked: File[]) => {
    setResult(null);
    setShownProblem(false);
    setFiles((current) => {
      const names = new Set(current.map((file) => file.webkitRelativePath || file.name));
      return [
        ...current,
        ...picked.filter((file) => isRuleFile(file) && !names.has(file.webkitRelativePath || file.name)),
      ];
    });
  };

  const send = async () => {
    if (problem) {
      setShownProblem(true);
      return;
    }
    setResult(null);
    setPercent(0);
    try {
      setResult(
        await mutation.mutateAsync({
          files,
          services,
          activation,
          dryRun,
          onProgress: (progress) => setPercent(progress.percent),
        }),
      );
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      notifyError({
        title: t('rules.sigmaImport.failed'),
        description: fieldErrors
          ? Object.values(fieldErrors).flat().join(' ')
          : error instanceof ApiError
            ? errorDescription(error)
            : undefined,
      });
    } finally {
      setPercent(null);
    }
  };

  // antd keeps the files out of its own list: the dialog shows the count and size instead
  const picker = (directory: boolean) => (
    <Upload
      multiple
      directory={directory}
      accept={directory ? undefined : '.yml,.yaml,.zip'}
      showUploadList={false}
      disabled={busy}
      beforeUpload={(_file, list) => {
        // called once per file with the whole choice: take the choice on its first file only
        if (list[0] === _file) add(list);
        return Upload.LIST_IGNORE;
      }}
    >
      <Button
        icon={directory ? <FolderOpenOutlined aria-hidden /> : <UploadOutlined aria-hidden />}
        disabled={busy}
        data-testid={directory ? 'sigma-import-folder' : 'sigma-import-files'}
      >
        {t(directory ? 'rules.sigmaImport.folder' : 'rules.sigmaImport.files')}
      </Button>
    </Upload>
  );

  return (
    <Modal
      open={open}
      title={t('rules.sigmaImport.title')}
      width="min(56rem, 100vw)"
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      destroyOnHidden
      afterClose={() => {
        setFiles([]);
        setResult(null);
        setShownProblem(false);
      }}
      modalRender={(node) => <div data-testid="sigma-import">{node}</div>}
      footer={
        <Flex justify="flex-end" gap="small">
          <Button onClick={onClose} disabled={busy}>
            {t('rules.sigmaImport.close')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => void send()} data-testid="sigma-import-send">
            {t(dryRun ? 'rules.sigmaImport.check' : 'rules.sigmaImport.import')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap="middle">
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('rules.sigmaImport.intro')}
        </Typography.Paragraph>
        <Flex gap="small" wrap align="center">
          {picker(false)}
          {picker(true)}
          {files.length > 0 && (
            <>
              <Typography.Text data-testid="sigma-import-chosen">
                {t('rules.sigmaImport.chosen', { count: files.length, size: formatFileSize(size) })}
              </Typography.Text>
              <Button type="link" size="small" disabled={busy} onClick={() => setFiles([])}>
                {t('rules.sigmaImport.clear')}
              </Button>
            </>
          )}
        </Flex>
        {shownProblem && problem && (
          <Alert
            type="error"
            showIcon
            role="alert"
            data-testid="sigma-import-problem"
            title={t(`rules.sigmaImport.${problem}`, {
              max:
                problem === 'tooBig'
                  ? formatFileSize(SIGMA_IMPORT_LIMITS.uploadBytes)
                  : SIGMA_IMPORT_LIMITS.files,
            })}
          />
        )}
        <Flex vertical gap="small">
          <Typography.Text strong id="sigma-import-services">
            {t('rules.sigmaImport.services')}
          </Typography.Text>
          <Checkbox.Group
            aria-labelledby="sigma-import-services"
            value={services}
            disabled={busy}
            onChange={(values) => setServices(values)}
            options={RULE_SERVICE_LEVELS.map((level) => ({ value: level, label: level }))}
          />
          <Typography.Text type="secondary">{t('rules.sigmaImport.servicesHint')}</Typography.Text>
        </Flex>
        <Flex vertical gap="small">
          <Typography.Text strong id="sigma-import-activation">
            {t('rules.sigmaImport.activation')}
          </Typography.Text>
          <Radio.Group
            aria-labelledby="sigma-import-activation"
            value={activation}
            disabled={busy}
            onChange={(event) => setActivation(event.target.value as RuleActivationMode)}
            options={RULE_ACTIVATION_MODES.map((mode) => ({
              value: mode,
              label: t(`rules.activation.${mode}`),
            }))}
          />
        </Flex>
        <Flex gap="small" align="center">
          <Switch
            id="sigma-import-dry-run"
            checked={dryRun}
            disabled={busy}
            onChange={setDryRun}
            data-testid="sigma-import-dry-run"
          />
          <label htmlFor="sigma-import-dry-run">{t('rules.sigmaImport.dryRun')}</label>
        </Flex>
        {percent !== null && (
          <Progress percent={percent} size="small" aria-label={t('rules.sigmaImport.sending', { percent })} />
        )}
        {result && <ImportResult result={result} />}
      </Flex>
    </Modal>
  );
}

function ImportResult({ result }: { result: SigmaImportResult }) {
  const { t } = useTranslation();
  const pagination = { pageSize: 10, hideOnSinglePage: true, size: 'small' as const };
  return (
    <Flex vertical gap="middle" data-testid="sigma-import-result" aria-live="polite">
      <Alert
        type={result.errors.length > 0 ? 'warning' : 'success'}
        showIcon
        title={
          result.dry_run
            ? t('rules.sigmaImport.resultChecked', { count: result.files })
            : t('rules.sigmaImport.resultImported', {
                count: result.files,
                seconds: result.seconds.toFixed(1),
              })
        }
      />
      <Flex gap="large" wrap>
        <Statistic
          title={t('rules.sigmaImport.created')}
          value={result.created}
          data-testid="sigma-import-created"
        />
        <Statistic
          title={t('rules.sigmaImport.updated')}
          value={result.updated}
          data-testid="sigma-import-updated"
        />
        <Statistic title={t('rules.sigmaImport.unchanged')} value={result.unchanged} />
        <Statistic title={t('rules.sigmaImport.skipped')} value={result.skipped.length} />
        <Statistic
          title={t('rules.sigmaImport.refused')}
          value={result.errors.length}
          data-testid="sigma-import-refused"
        />
      </Flex>
      {(result.skipped.length > 0 || result.errors.length > 0) && (
        <Tabs
          size="small"
          items={[
            {
              key: 'refused',
              label: `${t('rules.sigmaImport.refused')} (${result.errors.length})`,
              children: (
                <Table
                  size="small"
                  rowKey="file"
                  dataSource={result.errors}
                  pagination={pagination}
                  scroll={{ x: 'max-content' }}
                  data-testid="sigma-import-errors"
                  columns={[
                    { title: t('rules.sigmaImport.file'), dataIndex: 'file' },
                    { title: t('rules.sigmaImport.message'), dataIndex: 'message' },
                  ]}
                />
              ),
            },
            {
              key: 'skipped',
              label: `${t('rules.sigmaImport.skipped')} (${result.skipped.length})`,
              children: (
                <Table
                  size="small"
                  rowKey={(row) => `${row.file}:${row.rule_id ?? ''}`}
                  dataSource={result.skipped}
                  pagination={pagination}
                  scroll={{ x: 'max-content' }}
                  data-testid="sigma-import-skipped"
                  columns={[
                    { title: t('rules.sigmaImport.file'), dataIndex: 'file' },
                    { title: t('rules.sigmaImport.ruleId'), dataIndex: 'rule_id' },
                    {
                      title: t('rules.sigmaImport.reason'),
                      dataIndex: 'reason',
                      render: (reason: SigmaImportResult['skipped'][number]['reason']) =>
                        t(`rules.sigmaImport.reasons.${reason}`),
                    },
                    { title: t('rules.sigmaImport.message'), dataIndex: 'message' },
                  ]}
                />
              ),
            },
          ]}
        />
      )}
    </Flex>
  );
}
