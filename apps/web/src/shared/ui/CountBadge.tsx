import { BADGE_CAP } from '@soc/contracts';
import { Badge, type BadgeProps } from 'antd';

export type CountBadgeProps = Omit<BadgeProps, 'count' | 'overflowCount'> & {
  /** The number to show; above the cap it reads "99+" (product §B9). */
  count: number;
};

/** The one count badge of the app: every count above 99 shows as "99+". */
export function CountBadge({ count, ...props }: CountBadgeProps) {
  return <Badge count={count} overflowCount={BADGE_CAP} {...props} />;
}
