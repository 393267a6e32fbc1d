import { gzipSync } from 'node:zlib'
import { launchChromium } from './browser.mjs'

/**
 * Loads the login page in Chromium and sums the JavaScript it fetched, gzipped (level 9) so the
 * figure does not depend on which encoding the server chose for this browser.
 */
export async function loginPageJavaScript(baseUrl) {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    const scripts = new Map()
    page.on('response', async (response) => {
      const type = response.headers()['content-type'] ?? ''
      if (type.includes('javascript')) scripts.set(response.url(), response)
    })
    await page.goto(`${baseUrl}/ui/login`, { waitUntil: 'networkidle' })
    await page.getByRole('button', { name: 'Log In' }).waitFor()
    let gzipBytes = 0
    const files = []
    for (const [url, response] of scripts) {
      const body = await response.body()
      const size = gzipSync(body, { level: 9 }).length
      gzipBytes += size
      files.push({ url: url.replace(baseUrl, ''), gzipKB: +(size / 1024).toFixed(1) })
    }
    return { gzipKB: +(gzipBytes / 1024).toFixed(1), files }
  } finally {
    await browser.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await loginPageJavaScript(process.argv[2] ?? 'http://localhost:8080'), null, 2))
}
