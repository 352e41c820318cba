import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { HttpClient } from '@angular/common/http';

import { answer, failNetwork, panelTestProviders, settle } from '../../testing/testing-providers';
import { liveQuery } from './live-query';
import { RefreshClock } from './refresh-clock';

@Component({ template: '' })
class Host {
  private readonly http = TestBed.inject(HttpClient);
  readonly id = signal<string | undefined>('a');
  readonly query = liveQuery(() => {
    const id = this.id();
    return id ? this.http.get<{ id: string; n: number }>(`api/${id}`) : undefined;
  });
}

describe('liveQuery', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('is loading until the first answer', async () => {
    const host = TestBed.createComponent(Host).componentInstance;
    await settle();
    expect(host.query.loading()).toBe(true);
    expect(answer('api/a', { id: 'a', n: 1 }).length).toBe(1);
    await settle();
    expect(host.query.loading()).toBe(false);
    expect(host.query.value()).toEqual({ id: 'a', n: 1 });
  });

  it('refetches on each tick and keeps the value when a refresh fails', async () => {
    const host = TestBed.createComponent(Host).componentInstance;
    await settle();
    answer('api/a', { id: 'a', n: 1 });
    await settle();

    TestBed.inject(RefreshClock).refreshNow();
    await settle();
    expect(failNetwork('api/a')).toBe(1);
    await settle();
    expect(host.query.error()?.unreachable).toBe(true);
    expect(host.query.value()).toEqual({ id: 'a', n: 1 });

    TestBed.inject(RefreshClock).refreshNow();
    await settle();
    answer('api/a', { id: 'a', n: 2 });
    await settle();
    expect(host.query.error()).toBeUndefined();
    expect(host.query.value()?.n).toBe(2);
  });

  it('drops the old answer when its parameters change', async () => {
    const host = TestBed.createComponent(Host).componentInstance;
    await settle();
    answer('api/a', { id: 'a', n: 1 });
    await settle();
    host.id.set('b');
    await settle();
    expect(host.query.value()).toBeUndefined();
    expect(host.query.loading()).toBe(true);
    answer('api/b', { id: 'b', n: 1 });
    await settle();
    expect(host.query.value()?.id).toBe('b');
  });

  it('asks nothing without a request', async () => {
    const host = TestBed.createComponent(Host).componentInstance;
    host.id.set(undefined);
    await settle();
    expect(answer('api/a', {}).length).toBe(0);
    expect(host.query.loading()).toBe(false);
  });
});
