import { describe, expect, it } from 'vitest';
import { MENU_PATHS, menuKeyForPath } from './MainMenu.tsx';

describe('menuKeyForPath', () => {
  it('selects the staff area’s entries for their addresses', () => {
    expect(menuKeyForPath('/soc/queue')).toBe(MENU_PATHS.socQueue);
    expect(menuKeyForPath('/soc/mail')).toBe(MENU_PATHS.socMail);
    // /soc opens the queue, and what the queue opens belongs to it
    expect(menuKeyForPath('/soc')).toBe(MENU_PATHS.socQueue);
    expect(menuKeyForPath('/soc/incidents/new')).toBe(MENU_PATHS.socQueue);
    expect(menuKeyForPath('/socks')).toBeNull();
    expect(menuKeyForPath('/soc/mailbox')).toBe(MENU_PATHS.socQueue);
    expect(menuKeyForPath('/inc/10001')).toBe(MENU_PATHS.incidents);
  });
});
