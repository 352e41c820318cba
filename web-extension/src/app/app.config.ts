import {
  ApplicationConfig,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import { provideHttpClient, withFetch } from '@angular/common/http';
import { provideRouter } from '@angular/router';
import { provideEchartsCore } from 'ngx-echarts';

import { routerFeatures, routes } from './app.routes';
import { echarts } from './shared/chart/echarts-setup';

/** The application's providers: router (hash location, input binding), HttpClient, ECharts with only the parts used. */
export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    provideRouter(routes, ...routerFeatures),
    provideHttpClient(withFetch()),
    provideEchartsCore({ echarts }),
  ],
};
