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

let phoneStyles: Promise<unknown> | null = null;

/** The phone layout's styles (dialogs, pickers, tabs): a chunk of their own, never a desktop's. */
function loadPhoneStyles(): void {
  phoneStyles ??= import('../theme/phoneLayout.css').catch(() => {
    phoneStyles = null; // a failed load is tried again by the next render
  });
}

/**
 * Whether the viewport is narrower than 1024 px; re-renders when that changes (rotation,
 * resizing). The first "phone" loads the phone layout's styles.
 */
export function useIsPhone(): boolean {
  const isPhone = useSyncExternalStore(subscribe, isPhoneNow, () => false);
  if (isPhone) loadPhoneStyles();
  return isPhone;
}
