import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';

import { ApiError } from '../../core/api-error';
import { AsyncView, UNAVAILABLE } from './async-view';

/** Counts how often the projected content was created. */
let created = 0;

@Component({
  selector: 'fi-probe',
  template: `content {{ text() }}`,
})
class Probe {
  readonly text = signal('shown');
  constructor() {
    created++;
  }
}

@Component({
  imports: [AsyncView, Probe],
  template: `
    <section>
      <fi-async-view [query]="query" [empty]="empty()" emptyTitle="Nothing here" emptyMessage="No jobs seen yet."
                     [noteUnavailable]="noteUnavailable()" [loadingMessage]="loadingMessage()">
        <ng-template><fi-probe /></ng-template>
      </fi-async-view>
    </section>
  `,
})
class Host {
  readonly query = { loading: signal(true), value: signal<unknown>(undefined), error: signal<ApiError | undefined>(undefined) };
  readonly empty = signal(false);
  readonly noteUnavailable = signal(true);
  readonly loadingMessage = signal('');
}

@Component({
  imports: [AsyncView, Probe],
  template: `
    <fi-async-view [query]="query" [empty]="empty()" emptyTitle="No client figures yet">
      <p class="note" fiEmptyNote>how to install</p>
      <ng-template><fi-probe /></ng-template>
    </fi-async-view>
  `,
})
class WithNote {
  readonly query = { loading: signal(false), value: signal<unknown>({}), error: signal<ApiError | undefined>(undefined) };
  readonly empty = signal(true);
}

const UNREACHABLE: ApiError = { message: 'The Flink Insight hub is unreachable.', unreachable: true, status: 0 };

function render() {
  const fixture = TestBed.createComponent(Host);
  fixture.detectChanges();
  const host = fixture.componentInstance;
  const section = (fixture.nativeElement as HTMLElement).querySelector('section') as HTMLElement;
  return { fixture, host, section };
}

describe('AsyncView', () => {
  beforeEach(() => (created = 0));

  it('shows a spinner until the first answer, without creating the content', () => {
    const { section } = render();
    expect(section.querySelector('fi-state.fi-state-loading')?.textContent).toContain('Loading…');
    expect(section.querySelector('fi-probe')).toBeNull();
    expect(created).toBe(0);
  });

  it('says what it is loading when told', () => {
    const { fixture, host, section } = render();
    host.loadingMessage.set('Loading history…');
    fixture.detectChanges();
    expect(section.querySelector('fi-state.fi-state-loading')?.textContent).toContain('Loading history…');
  });

  it('says the figures are not available when the request failed before any answer', () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    host.query.error.set(UNREACHABLE);
    fixture.detectChanges();
    expect(section.querySelector('fi-state.fi-state-empty')?.textContent).toContain(UNAVAILABLE);
    expect(created).toBe(0);
  });

  it('shows the content without an answer when told the content copes without one', () => {
    const { fixture, host, section } = render();
    host.noteUnavailable.set(false);
    host.query.loading.set(false);
    host.query.error.set(UNREACHABLE);
    fixture.detectChanges();
    expect(section.querySelector('fi-state')).toBeNull();
    expect(section.textContent).toContain('content shown');
  });

  it('shows the empty state when the answer holds nothing to show', () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    host.query.value.set({ jobs: [] });
    host.empty.set(true);
    fixture.detectChanges();
    const empty = section.querySelector('fi-state.fi-state-empty');
    expect(empty?.textContent).toContain('Nothing here');
    expect(empty?.textContent).toContain('No jobs seen yet.');
    expect(created).toBe(0);
  });

  it('shows the content once there is an answer, inside the section', () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    host.query.value.set({ jobs: [1] });
    fixture.detectChanges();
    expect(section.querySelector('fi-state')).toBeNull();
    expect(section.querySelector('fi-probe')?.textContent).toContain('content shown');
    expect(created).toBe(1);
  });

  it("names what failed in the hub's own words when the hub answered with an error", () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    host.query.error.set({ message: 'internal error in /api/v1/series (HTTP 500)', unreachable: false, status: 500 });
    fixture.detectChanges();
    expect(section.querySelector('fi-state.fi-state-empty')?.textContent).toContain(
      'Not available: internal error in /api/v1/series (HTTP 500)',
    );
    expect(created).toBe(0);
  });

  it('keeps the content of an earlier answer when a later request fails', () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    host.query.value.set({ jobs: [1] });
    host.query.error.set(UNREACHABLE);
    fixture.detectChanges();
    expect(section.querySelector('fi-state')).toBeNull();
    expect(section.querySelector('fi-probe')).not.toBeNull();
  });

  it('shows the marked note below the empty state, and only there', () => {
    const fixture = TestBed.createComponent(WithNote);
    fixture.detectChanges();
    const page = fixture.nativeElement as HTMLElement;
    expect(page.querySelector('fi-state.fi-state-empty')?.textContent).toContain('No client figures yet');
    expect(page.querySelector('p.note')?.textContent).toContain('how to install');
    fixture.componentInstance.empty.set(false);
    fixture.detectChanges();
    expect(page.querySelector('p.note')).toBeNull();
    expect(page.textContent).toContain('content shown');
  });
});
