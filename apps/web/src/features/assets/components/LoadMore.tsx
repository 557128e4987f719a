import { Button, Flex } from 'antd';
import { useEffect, useRef } from 'react';

export type LoadMoreProps = {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  label: string;
  testId: string;
};

/** Fetches the next page when it scrolls into view (design §7), with a button as well. */
export function LoadMore({ hasMore, loading, onLoad, label, testId }: LoadMoreProps) {
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const node = ref.current;
    if (!node || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore]);
  if (!hasMore) return null;
  return (
    <Flex ref={ref} justify="center" style={{ padding: 8 }}>
      <Button loading={loading} onClick={onLoad} data-testid={testId}>
        {label}
      </Button>
    </Flex>
  );
}
