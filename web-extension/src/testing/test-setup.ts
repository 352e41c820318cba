// jsdom has no ResizeObserver; ngx-echarts requires one to exist (the charts themselves are faked in specs).
class TestingResizeObserver {
  observe(): void {
    // Nothing to observe: jsdom lays nothing out, so no size ever changes.
  }
  unobserve(): void {
    // Nothing observed (see observe).
  }
  disconnect(): void {
    // Nothing observed (see observe).
  }
}
if (!('ResizeObserver' in globalThis)) {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = TestingResizeObserver;
}
