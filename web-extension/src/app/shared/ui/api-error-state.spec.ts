import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';

import { ApiError } from '../../core/api-error';
import { ApiErrorState } from './api-error-state';

@Component({
  imports: [ApiErrorState],
  template: `<fi-api-error [error]="error()" title="Could not load jobs" />`,
})
class Host {
  readonly error = signal<ApiError | undefined>(undefined);
}

function render() {
  const fixture = TestBed.createComponent(Host);
  fixture.detectChanges();
  return { fixture, host: fixture.componentInstance, page: fixture.nativeElement as HTMLElement };
}

describe('ApiErrorState', () => {
  it('shows nothing without an error', () => {
    const { page } = render();
    expect(page.querySelector('fi-state.fi-state-error')).toBeNull();
  });

  it('names an unreachable hub as such', () => {
    const { fixture, host, page } = render();
    host.error.set({ message: 'The Flink Insight hub is unreachable.', unreachable: true, status: 0 });
    fixture.detectChanges();
    const error = page.querySelector('fi-state.fi-state-error');
    expect(error?.getAttribute('role')).toBe('alert');
    expect(error?.textContent).toContain('Hub unreachable');
    expect(error?.textContent).toContain('The Flink Insight hub is unreachable.');
  });

  it('shows the page title and the hub message for an error answer', () => {
    const { fixture, host, page } = render();
    host.error.set({ message: 'no such metric (HTTP 404)', unreachable: false, status: 404 });
    fixture.detectChanges();
    const error = page.querySelector('fi-state.fi-state-error');
    expect(error?.textContent).toContain('Could not load jobs');
    expect(error?.textContent).toContain('no such metric (HTTP 404)');
  });
});
