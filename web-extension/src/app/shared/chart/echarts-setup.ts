import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import {
  DataZoomInsideComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// Only the parts the panel draws: keeps the initial bundle small (the full build is ~1 MB minified).
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, DataZoomInsideComponent,
  CanvasRenderer]);

/**
 * Read-only hook for the end-to-end script: it finds each chart with getInstanceByDom and checks its data points.
 * Exposes nothing that changes state.
 */
(globalThis as { insightEcharts?: unknown }).insightEcharts = Object.freeze({
  getInstanceByDom: echarts.getInstanceByDom,
});

export { echarts };
