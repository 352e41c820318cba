import { TestBed } from '@angular/core/testing';
import { HttpTestingController } from '@angular/common/http/testing';

import { timeWindow } from '../../core/time-range';
import { panelTestProviders } from '../../../testing/testing-providers';
import { isStatementId, statementSort } from './statements.model';
import { StatementsService } from './statements.service';

describe('StatementsService', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('asks for the statements in the given order that ran since the window started', () => {
    const http = TestBed.inject(HttpTestingController);
    TestBed.inject(StatementsService).statements('p99', timeWindow({ range: '1h', refresh: true })).subscribe();
    const r = http.expectOne((req) => req.url === 'api/v1/statements');
    expect(r.request.params.get('sort')).toBe('p99');
    expect(r.request.params.get('from')).toBe('-1h');
    expect(r.request.params.get('limit')).toBe('200');
    // the endpoint refuses parameters it does not know, such as a window's end
    expect(r.request.params.keys().sort()).toEqual(['from', 'limit', 'sort']);
    r.flush({ sort: 'p99', kept: 0, statements: [] });
    http.verify();
  });

  it("asks for one statement's queries", () => {
    const http = TestBed.inject(HttpTestingController);
    TestBed.inject(StatementsService).queries('0123456789abcdef').subscribe();
    const r = http.expectOne((req) => req.url === 'api/v1/queries');
    expect(r.request.params.get('statement')).toBe('0123456789abcdef');
    r.flush({ statementId: '0123456789abcdef', statement: null, slowest: [], latest: [] });
    http.verify();
  });
});

describe('statement parameters', () => {
  it('accepts the four sorts the hub knows and falls back to total time', () => {
    expect(['total', 'p99', 'calls', 'failures'].map(statementSort)).toEqual(['total', 'p99', 'calls', 'failures']);
    expect(statementSort('mean')).toBe('total');
    expect(statementSort(null)).toBe('total');
  });

  it('accepts only 16 hex digits as a statement id', () => {
    expect(isStatementId('0123456789abcdef')).toBe(true);
    expect(isStatementId('0123456789ABCDEF')).toBe(false);
    expect(isStatementId('0123456789abcde')).toBe(false);
    expect(isStatementId('../../api/v1/jobs')).toBe(false);
    expect(isStatementId(undefined)).toBe(false);
  });
});
