import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';

import { AsyncView } from './async-view';
import { UNAVAILABLE } from './state-panel';

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
                     [unavailableMessage]="unavailable()" [loadingMessage]="loadingMessage()">
        <ng-template><fi-probe /></ng-template>
      </fi-async-view>
    </section>
  `,
})
class Host {
  readonly query = { loading: signal(true), value: signal<unknown>(undefined) };
  readonly empty = signal(false);
  readonly unavailable = signal<string | null>(UNAVAILABLE);
  readonly loadingMessage = signal('');
}

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

  it('says the figures are not available when the request ended without an answer', () => {
    const { fixture, host, section } = render();
    host.query.loading.set(false);
    fixture.detectChanges();
    expect(section.querySelector('fi-state.fi-state-empty')?.textContent).toContain(UNAVAILABLE);
    expect(created).toBe(0);
  });

  it('shows the content without an answer when it has no unavailable state', () => {
    const { fixture, host, section } = render();
    host.unavailable.set(null);
    host.query.loading.set(false);
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

});
