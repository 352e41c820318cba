import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';

import { ApiError } from '../../core/api-error';
import { ApiErrorState } from './api-error-state';

@Component({
  imports: [ApiErrorState],
  template: `<fi-api-error [requests]="{ jobs: jobs, overview: overview }" />`,
})
class Host {
  readonly jobs = { error: signal<ApiError | undefined>(undefined) };
  readonly overview = { error: signal<ApiError | undefined>(undefined) };
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
    host.jobs.error.set({ message: 'The Flink Insight hub is unreachable.', unreachable: true, status: 0 });
    fixture.detectChanges();
    const error = page.querySelector('fi-state.fi-state-error');
    expect(error?.getAttribute('role')).toBe('alert');
    expect(error?.textContent).toContain('Hub unreachable');
    expect(error?.textContent).toContain('The Flink Insight hub is unreachable.');
  });

  it('titles an error answer by what failed to load and shows the hub message', () => {
    const { fixture, host, page } = render();
    host.jobs.error.set({ message: 'no such metric (HTTP 404)', unreachable: false, status: 404 });
    fixture.detectChanges();
    const error = page.querySelector('fi-state.fi-state-error');
    expect(error?.textContent).toContain('Could not load jobs');
    expect(error?.textContent).toContain('no such metric (HTTP 404)');
  });

  it('shows the first failure in the order the page lists its requests', () => {
    const { fixture, host, page } = render();
    host.overview.error.set({ message: 'overview failed (HTTP 500)', unreachable: false, status: 500 });
    fixture.detectChanges();
    expect(page.querySelector('fi-state.fi-state-error')?.textContent).toContain('Could not load overview');
    host.jobs.error.set({ message: 'jobs failed (HTTP 500)', unreachable: false, status: 500 });
    fixture.detectChanges();
    const errors = page.querySelectorAll('fi-state.fi-state-error');
    expect(errors.length).toBe(1);
    expect(errors[0].textContent).toContain('Could not load jobs');
    expect(errors[0].textContent).toContain('jobs failed (HTTP 500)');
  });
});
