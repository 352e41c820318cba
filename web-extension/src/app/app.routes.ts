import { Routes } from '@angular/router';

/** One lazy route per page; unknown paths go to the overview (the hub already sends index.html for them). */
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
  { path: '**', redirectTo: 'overview' },
];
