import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { StatusScreen } from './StatusScreen.tsx';

export type StaffOnlyScreenProps = {
  title: string;
  /** Which screen is for staff only, in the page's own words. */
  text: string;
  /** The button's text; it leads to the dashboard. */
  homeText: string;
};

/**
 * What a customer sees on an address of the staff area (design §9): the page is not available,
 * with the way back to the dashboard. The page shows it instead of asking the analyst API.
 */
export function StaffOnlyScreen({ title, text, homeText }: StaffOnlyScreenProps) {
  const navigate = useNavigate();
  useDocumentTitle(title);
  return (
    <StatusScreen
      status="warning"
      title={title}
      subTitle={text}
      extra={
        <Button type="primary" onClick={() => void navigate('/dashboard')}>
          {homeText}
        </Button>
      }
      data-testid="soc-not-available"
    />
  );
}
