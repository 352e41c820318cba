/** One `setOption` call as ngx-echarts made it. */
export interface SetOptionCall {
  readonly option: Record<string, unknown>;
  readonly notMerge: boolean;
}

/** A chart that records what ngx-echarts sets on it (jsdom has no canvas to draw on). */
export class TestingChart {
  readonly calls: SetOptionCall[] = [];
  private disposed = false;

  constructor(readonly dom: HTMLElement) {}

  setOption(option: Record<string, unknown>, notMerge?: boolean): void {
    this.calls.push({ option, notMerge: notMerge === true });
  }

  isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    this.disposed = true;
  }

  // ngx-echarts calls these too; a chart without a canvas has nothing to resize, no spinner and no events.
  resize(): void {
    // no canvas to resize
  }
  showLoading(): void {
    // no spinner to show
  }
  hideLoading(): void {
    // no spinner to hide
  }
  on(): void {
    // no events are ever fired
  }
  off(): void {
    // no events are ever fired
  }
}

/** Stands in for the `echarts` module given to `provideEchartsCore`; keeps every chart it created. */
export class TestingEcharts {
  readonly charts: TestingChart[] = [];

  readonly init = (dom: HTMLElement): TestingChart => {
    const chart = new TestingChart(dom);
    this.charts.push(chart);
    return chart;
  };
}
