import { useSyncExternalStore } from 'react';

/**
 * Below 1024 px the portal has its phone layout (product §A2: the desktop shell is at least
 * 1440 px wide, below 1024 px a drawer menu and one-column pages). antd's `lg` breakpoint is
 * 992 px, so this is a media query of its own; every phone/desktop decision goes through here.
 */
export const PHONE_MEDIA_QUERY = '(max-width: 1023.98px)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(PHONE_MEDIA_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isPhoneNow = () => window.matchMedia(PHONE_MEDIA_QUERY).matches;

/** Whether the viewport is narrower than 1024 px; re-renders when that changes (rotation, resizing). */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, isPhoneNow, () => false);
}
