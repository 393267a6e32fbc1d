// Debian's Chromium, as every browser test and benchmark here launches it. This sandboxed machine
// has no network but the package registries: the flags keep Chromium from reaching out.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}
