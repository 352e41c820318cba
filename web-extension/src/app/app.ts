import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';

import { HubOverview } from './api/overview/hub-overview';
import { standbyLeader } from './api/overview/overview.model';
import { flinkDashboardUrl } from './api/overview/overview.service';
import { TimeToolbar } from './shell/time-toolbar';
import { formatDuration } from './shared/format/units';

/** The shell: Flink-dashboard-like sider with the pages, a header with the time controls, and the page. */
@Component({
  selector: 'fi-root',
  imports: [RouterOutlet, RouterLink, RouterLinkActive, TimeToolbar],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './app.html',
})
export class App {
  protected readonly overview = inject(HubOverview).query;

  protected readonly links = [
    { path: '/overview', label: 'Overview', icon: '◔' },
    { path: '/jobs', label: 'Jobs', icon: '☰' },
    { path: '/client', label: 'Client', icon: '⇄' },
    { path: '/statements', label: 'Statements', icon: '∑' },
    { path: '/compare', label: 'Compare', icon: '⇆' },
  ];

  protected readonly processText = computed(() => {
    const o = this.overview.value();
    if (!o) {
      return '';
    }
    const parts = [o.role, o.flinkVersion ? `Flink ${o.flinkVersion}` : undefined,
      o.uptimeMs != null ? `up ${formatDuration(o.uptimeMs)}` : undefined];
    return parts.filter(Boolean).join(' · ');
  });
  /** The link back to Flink's dashboard (the hub's copy with the Insight tab, when it serves one). */
  protected readonly flinkDashboard = computed(() => flinkDashboardUrl(this.overview.value()));
  protected readonly version = computed(() => this.overview.value()?.insightVersion);
  /**
   * Set when this JobManager is a standby: its hub does not poll, so the pages would show nothing; the leader's URL
   * ('' while unknown) is shown instead.
   */
  protected readonly standbyLeader = computed(() => standbyLeader(this.overview.value()));
}
