import { RouterFeatures, Routes, withComponentInputBinding, withHashLocation } from '@angular/router';

/** One lazy route per page (in the URL's fragment: `#/overview`); unknown routes go to the overview. */
export const routes: Routes = [
  { path: '', pathMatch: 'full', redirectTo: 'overview' },
  {
    path: 'overview',
    title: 'Overview · Flink Insight',
    loadComponent: () => import('./features/overview/overview-page').then((m) => m.OverviewPage),
  },
  {
    path: 'jobs',
    title: 'Jobs · Flink Insight',
    loadComponent: () => import('./features/jobs/jobs-page').then((m) => m.JobsPage),
  },
  {
    path: 'jobs/:jobId',
    title: 'Job · Flink Insight',
    loadComponent: () => import('./features/job-detail/job-detail-page').then((m) => m.JobDetailPage),
  },
  {
    path: 'client',
    title: 'Client · Flink Insight',
    loadComponent: () => import('./features/client/client-page').then((m) => m.ClientPage),
  },
  {
    path: 'statements',
    title: 'Statements · Flink Insight',
    loadComponent: () => import('./features/statements/statements-page').then((m) => m.StatementsPage),
  },
  {
    path: 'compare',
    title: 'Compare · Flink Insight',
    loadComponent: () => import('./features/compare/compare-page').then((m) => m.ComparePage),
  },
  { path: '**', redirectTo: 'overview' },
];

/**
 * The router's features, shared with the specs: the view lives in the URL's fragment (`#/jobs/<id>?range=1h`), so
 * the hub serves one page at `/` and answers unknown paths with 404 instead of the panel, and the panel works
 * unchanged behind a reverse proxy that adds a path prefix (`https://host/insight/#/overview`); route inputs are
 * bound from the path and the query.
 */
export const routerFeatures: RouterFeatures[] = [withHashLocation(), withComponentInputBinding()];
