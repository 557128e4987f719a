// The parts of ECharts the dashboard uses (tree-shaken; this module is only in the dashboard chunk).
import { BarChart, GaugeChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';
import langRU from 'echarts/lib/i18n/langRU.js';

echarts.use([
  BarChart,
  GaugeChart,
  LineChart,
  PieChart,
  GridComponent,
  LabelLayout,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  SVGRenderer,
]);
echarts.registerLocale('RU', langRU);

export { echarts };
export type EChartsOption = echarts.EChartsCoreOption;
