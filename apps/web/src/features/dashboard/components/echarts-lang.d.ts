// ECharts ships its locale objects without type declarations.
declare module 'echarts/lib/i18n/langRU.js' {
  import type { registerLocale } from 'echarts/core';
  const lang: Parameters<typeof registerLocale>[1];
  export default lang;
}
