import { TestBed } from '@angular/core/testing';
import { HttpTestingController } from '@angular/common/http/testing';

import { timeWindow } from '../../core/time-range';
import { clientFiguresWithHistory } from '../../../testing/payloads';
import { panelTestProviders } from '../../../testing/testing-providers';
import { ClientFigures } from './client.model';
import { ClientService } from './client.service';

describe('ClientService', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('reads the figures now without history', () => {
    const http = TestBed.inject(HttpTestingController);
    TestBed.inject(ClientService).figures().subscribe();
    const r = http.expectOne((req) => req.url === 'api/v1/client');
    expect(r.request.params.keys()).toEqual([]);
    r.flush({});
    http.verify();
  });

  it('reads the figures and their history over the window in one request', () => {
    const http = TestBed.inject(HttpTestingController);
    let result: ClientFigures | undefined;
    TestBed.inject(ClientService).withHistory(timeWindow({ range: '15m', refresh: true })).subscribe((f) => (result = f));

    const r = http.expectOne((req) => req.url === 'api/v1/client');
    expect(r.request.params.get('from')).toBe('-15m');
    expect(r.request.params.get('step')).toBe('3s');
    const body = clientFiguresWithHistory(10_000);
    r.flush(body);
    expect(result?.history?.pool.hitRate).toEqual([[4000, 0.8], [7000, 0.9]]);
    http.verify();
  });
});
