import { Pipe, PipeTransform } from '@angular/core';

import { formatDateTime } from './time';
import { formatBytes, formatCount, formatMs, formatPercent, formatRate } from './units';

/** `{{ size | fiBytes }}` → "1.5 MiB". */
@Pipe({ name: 'fiBytes' })
export class BytesPipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatBytes(value);
  }
}

/** `{{ duration | fiMs }}` → "850 ms", "1.25 s". */
@Pipe({ name: 'fiMs' })
export class MsPipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatMs(value);
  }
}

/** `{{ ratio | fiPercent }}` → "93.4 %". */
@Pipe({ name: 'fiPercent' })
export class PercentPipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatPercent(value);
  }
}

/** `{{ n | fiCount }}` → "12.3k". */
@Pipe({ name: 'fiCount' })
export class CountPipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatCount(value);
  }
}

/** `{{ rate | fiRate }}` → "1.2k /s". */
@Pipe({ name: 'fiRate' })
export class RatePipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatRate(value);
  }
}

/** `{{ epochMs | fiTime }}` → "2025-11-22 14:03:07". */
@Pipe({ name: 'fiTime' })
export class TimePipe implements PipeTransform {
  transform(value: number | null | undefined): string {
    return formatDateTime(value);
  }
}

export const UNIT_PIPES = [BytesPipe, MsPipe, PercentPipe, CountPipe, RatePipe, TimePipe] as const;
