import type { BundleDetails, BundleSummary } from '@trove/contracts/distribution'

/** The calls' base, as the fetch stub sees it. */
export const UI = '/distribution/api/ui'

export const summary = (over: Partial<BundleSummary> = {}): BundleSummary => ({
  name: 'shop',
  version: '1.0',
  description: 'The shop',
  state: 'signed',
  origin: 'source',
  createdBy: 'admin',
  createdAt: Date.UTC(2026, 10, 20, 9, 30),
  signedAt: Date.UTC(2026, 10, 20, 9, 31),
  files: 2,
  size: 3 * 1024 * 1024,
  sourceUrl: null,
  verified: false,
  distributedTo: [],
  ...over,
})

export const details = (over: Partial<BundleDetails> = {}): BundleDetails => ({
  ...summary(),
  releaseNotes: '# Shop 1.0\n\nFirst **release**.',
  keyId: 'ed25519:4f2a9c',
  signature: 'c2lnbmVk',
  contents: [
    {
      repoKey: 'npm-local',
      path: 'hello/-/hello-1.0.0.tgz',
      sha256: 'a'.repeat(64),
      sha1: 'b'.repeat(40),
      md5: 'c'.repeat(32),
      size: 2048,
      packageType: 'npm',
      packageName: 'hello',
      packageVersion: '1.0.0',
    },
  ],
  distributions: [],
  ...over,
})

/** jsdom has no `document.fonts`, which Mantine's autosizing textarea listens to. */
export function stubDocumentFonts() {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {} },
    })
}
