// What the e2e scripts share: Debian's Chromium launched headless, and a list of named checks whose failures end
// the run with exit code 1.
import { chromium } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), headless and without the background traffic a test does not want. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Named checks: `check(name, ok, detail)` prints each; `finish()` prints the count and exits 1 on any failure. */
export function checks() {
  const failures = [];
  let passed = 0;
  return {
    check(name, ok, detail = '') {
      if (ok) {
        passed++;
        console.log(`ok   ${name}`);
      } else {
        failures.push(`${name}${detail ? `: ${detail}` : ''}`);
        console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
      }
    },
    finish() {
      console.log(`\n${passed} passed, ${failures.length} failed`);
      if (failures.length) {
        console.log('failed:');
        for (const f of failures) console.log(`  - ${f}`);
      }
      process.exit(failures.length ? 1 : 0);
    },
  };
}
