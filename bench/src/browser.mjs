import { chromiumLaunchOptions } from '@trove/e2e/chromium'
import { chromium } from 'playwright-core'

/** Debian's Chromium, headless, launched the way the browser tests launch it. */
export function launchChromium() {
  return chromium.launch(chromiumLaunchOptions)
}
