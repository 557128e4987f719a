import { Flex } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../hooks/useIsPhone.ts';
import { FilterToggle } from '../ListPage.tsx';
import { FilterDrawer } from '../PhoneLayout.tsx';

export type FilterBarProps = {
  /**
   * Prefix of the test ids: `${testId}-filter-bar` (the bar), and on a phone
   * `${testId}-filter-toggle`, `${testId}-filter-drawer` and `${testId}-filters` (the drawer's fields).
   */
  testId: string;
  /** Filters in use, besides the search: the number on the phone's Filters button. */
  active: number;
  /** The search box: in the bar on a phone as well. */
  search?: ReactNode;
  /** The filters, sort and reset: on one wrapping line on the desktop, in a drawer on a phone. */
  children: ReactNode;
};

/**
 * The toolbar of a list screen (alerts, recommendations, log sources, assets, audit). On the
 * desktop the search and the filters share one wrapping line; on a phone (below 1024 px) the
 * line holds the search and a "Filters" button with the number in use, which opens the filters
 * in a drawer, as the incident list does (design §9).
 */
export function FilterBar({ testId, active, search, children }: FilterBarProps) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [open, setOpen] = useState(false);
  if (!isPhone) {
    return (
      <Flex gap="small" wrap align="center" data-testid={`${testId}-filter-bar`}>
        {search}
        {children}
      </Flex>
    );
  }
  const fieldsId = `${testId}-filters`;
  return (
    <>
      <Flex gap="small" align="center" data-testid={`${testId}-filter-bar`} data-filters="drawer">
        {/* the search takes what the button leaves */}
        <div style={{ flex: '1 1 auto', minWidth: 0 }}>{search}</div>
        <FilterToggle
          active={active}
          open={open}
          onToggle={() => setOpen((value) => !value)}
          text={t('list.filters')}
          countLabel={t('list.filtersCount', { count: active })}
          controls={fieldsId}
          testId={`${testId}-filter-toggle`}
        />
      </Flex>
      <FilterDrawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('list.filters')}
        closeLabel={t('list.closeFilters')}
        testId={`${testId}-filter-drawer`}
      >
        <Flex vertical gap="middle" id={fieldsId} className="filter-drawer-fields" data-testid={fieldsId}>
          {children}
        </Flex>
      </FilterDrawer>
    </>
  );
}
