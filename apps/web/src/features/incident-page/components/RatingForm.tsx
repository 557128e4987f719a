import { RATING_COMMENT_MAX, RATING_MAX, type IncidentCard } from '@soc/contracts';
import { Button, Flex, Form, Input, Rate, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useRatingMutation } from '../api/useRatingMutation.ts';
import '../i18n/texts.ts';

interface RatingValues {
  rating?: number;
  comment?: string;
}

const FIELD_BY_SERVER_NAME: Record<string, keyof RatingValues> = { rating: 'rating', comment: 'comment' };

/** Clamps a star count to the allowed range (product §A5). */
export const clampRating = (value: number): number => Math.min(RATING_MAX, Math.max(0, Math.round(value)));

export type RatingBlockProps = {
  incident: IncidentCard;
};

/**
 * The rating of a handled incident (product §A4 "Rating"): the given rating read-only, or,
 * while there is none and the incident may be rated, stars with a comment; submit and cancel
 * appear once a star is chosen. A 400 puts the server's messages on the fields and toasts.
 */
export function RatingBlock({ incident }: RatingBlockProps) {
  const { t } = useTranslation();
  if (incident.customer_star_rating !== null) {
    return (
      <Flex vertical gap="small" data-testid="rating-given">
        <Flex align="center" gap="small">
          <Typography.Text type="secondary">{t('incidentPage.rating.yourRating')}:</Typography.Text>
          <Rate
            disabled
            value={incident.customer_star_rating}
            count={RATING_MAX}
            data-testid="rating-value"
          />
        </Flex>
        {incident.customer_star_rating_comment && (
          <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>
            {incident.customer_star_rating_comment}
          </Typography.Paragraph>
        )}
      </Flex>
    );
  }
  if (!incident.can_rate) {
    return <Typography.Text type="secondary">{t('incidentPage.rating.notAvailable')}</Typography.Text>;
  }
  return <RatingForm incidentKey={incident.key} />;
}

type RatingFormProps = { incidentKey: number };

/** Stars and a comment; submit and cancel once a star is chosen. */
function RatingForm({ incidentKey }: RatingFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RatingValues>();
  const rating = Form.useWatch('rating', form) ?? 0;
  const mutation = useRatingMutation(incidentKey);
  const [formErrors, setFormErrors] = useState<string[]>([]);

  const reset = () => {
    form.resetFields();
    setFormErrors([]);
  };

  const submit = async (values: RatingValues) => {
    setFormErrors([]);
    try {
      await mutation.mutateAsync({
        rating: clampRating(values.rating ?? 0),
        comment: (values.comment ?? '').trim(),
      });
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t('incidentPage.rating.failed'));
        return;
      }
      const mapped = mapFieldErrors(fieldErrors, FIELD_BY_SERVER_NAME);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
      notifyError({
        title: t('incidentPage.rating.failed'),
        description: [...mapped.fields.flatMap((field) => field.errors), ...mapped.formErrors],
      });
      return;
    }
    notifySuccess({ title: t('incidentPage.rating.saved') });
  };

  return (
    <Form<RatingValues>
      form={form}
      layout="vertical"
      onFinish={(values) => void submit(values)}
      disabled={mutation.isPending}
      data-testid="rating-form"
    >
      <Form.Item
        label={t('incidentPage.rating.label')}
        name="rating"
        style={{ marginBottom: rating > 0 ? undefined : 0 }}
      >
        <Rate count={RATING_MAX} data-testid="rating-stars" />
      </Form.Item>
      {rating > 0 && (
        <>
          <Form.Item
            label={t('incidentPage.rating.comment')}
            name="comment"
            rules={[{ max: RATING_COMMENT_MAX }]}
          >
            <Input.TextArea
              rows={3}
              placeholder={t('incidentPage.rating.commentPlaceholder')}
              data-testid="rating-comment"
              maxLength={RATING_COMMENT_MAX}
            />
          </Form.Item>
          <FormErrorAlert messages={formErrors} testId="rating-form-errors" />
          <Flex gap="small" justify="flex-end">
            <Button onClick={reset} data-testid="rating-cancel">
              {t('incidentPage.rating.cancel')}
            </Button>
            <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="rating-submit">
              {t('incidentPage.rating.submit')}
            </Button>
          </Flex>
        </>
      )}
    </Form>
  );
}
