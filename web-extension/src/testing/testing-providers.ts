import { EnvironmentProviders, Provider } from '@angular/core';
import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting, TestRequest } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import { provideEchartsCore } from 'ngx-echarts';

import { routerFeatures, routes } from '../app/app.routes';
import { TestingEcharts } from './testing-echarts';

/**
 * The panel's providers for a spec: the real router, routes and router features (hash location, so links read
 * `#/jobs/...`), HttpClient against the testing backend, fake charts.
 */
export function panelTestProviders(echarts = new TestingEcharts()): (Provider | EnvironmentProviders)[] {
  return [
    provideRouter(routes, ...routerFeatures),
    provideHttpClient(),
    provideHttpClientTesting(),
    provideEchartsCore({ echarts: echarts as never }),
  ];
}

/** Lets effects, HTTP subscriptions and change detection run (without waiting for open requests). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    TestBed.tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  TestBed.tick();
}

/** Answers every open request to {@link path} (query ignored) with {@link body}; returns how many it answered. */
export function answer(path: string, body: unknown, http = TestBed.inject(HttpTestingController)): TestRequest[] {
  const requests = http.match((r) => r.url === path);
  for (const r of requests) {
    r.flush(body as never);
  }
  return requests;
}

/** Fails every open request to {@link path} as a network error (the hub is unreachable). */
export function failNetwork(path: string, http = TestBed.inject(HttpTestingController)): number {
  const requests = http.match((r) => r.url === path);
  for (const r of requests) {
    r.error(new ProgressEvent('error'), { status: 0, statusText: 'Unknown Error' });
  }
  return requests.length;
}

/** Answers every open request to {@link path} with the error {@link status} and its JSON {@link body}. */
export function failWith(path: string, status: number, body: unknown, http = TestBed.inject(HttpTestingController)): number {
  const requests = http.match((r) => r.url === path);
  for (const r of requests) {
    r.flush(body as never, { status, statusText: 'Error' });
  }
  return requests.length;
}
