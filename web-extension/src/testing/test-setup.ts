// jsdom has no ResizeObserver; ngx-echarts requires one to exist (the charts themselves are faked in specs).
class TestingResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in globalThis)) {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = TestingResizeObserver;
}
