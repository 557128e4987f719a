import { describe, expect, it } from 'vitest';
import { MENU_PATHS, menuKeyForPath } from './MainMenu.tsx';

describe('menuKeyForPath', () => {
  it('selects the SOC entry for every address of the staff area', () => {
    expect(menuKeyForPath('/soc')).toBe(MENU_PATHS.soc);
    expect(menuKeyForPath('/soc/queue')).toBe(MENU_PATHS.soc);
    expect(menuKeyForPath('/socks')).toBeNull();
    expect(menuKeyForPath('/inc/10001')).toBe(MENU_PATHS.incidents);
  });
});
