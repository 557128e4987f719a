import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { applyThemeMode, readThemeMode, type ThemeMode } from './themeMode.ts';

interface ThemeModeValue {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
  toggle: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue | null>(null);

export type ThemeModeProviderProps = {
  /** Overrides the persisted theme (tests, previews). */
  initialMode?: ThemeMode;
  children: ReactNode;
};

/** Holds the light/dark choice; the app's ConfigProvider reads it through useThemeMode(). */
export function ThemeModeProvider({ initialMode, children }: ThemeModeProviderProps) {
  const [mode, setMode] = useState<ThemeMode>(() => initialMode ?? readThemeMode());

  // Layout effect: the attribute must be in place before the first paint to avoid a flash.
  useLayoutEffect(() => applyThemeMode(mode), [mode]);

  const toggle = useCallback(() => setMode((current) => (current === 'dark' ? 'light' : 'dark')), []);
  const value = useMemo(() => ({ mode, setMode, toggle }), [mode, toggle]);
  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}

/** The current theme and its setters; must be used under ThemeModeProvider. */
export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used within ThemeModeProvider');
  return value;
}
