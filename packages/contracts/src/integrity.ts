import { z } from 'zod'

/**
 * A `blobs` row whose file is not in the store. `referenced`: a row of `files` or `remote_cache`
 * names it, so a download fails; an unreferenced one is an upload cut off between its row and its
 * file (or one a backup skipped), which the blob GC removes: a warning only.
 */
export const MissingBlob = z.object({ sha256: z.string(), size: z.number(), referenced: z.boolean() })

/** A blob file whose size or content is not what its row and name say. */
export const CorruptBlob = z.object({
  sha256: z.string(),
  expectedSize: z.number(),
  actualSize: z.number(),
  /** What the content hashes to (absent when the size already told). */
  actualSha256: z.string().optional(),
})

/** A row (of `files` or `remote_cache`) naming a blob that has no `blobs` row. */
export const DanglingReference = z.object({ table: z.string(), repoKey: z.string(), path: z.string(), sha256: z.string() })

/** A `files` row whose size or checksums disagree with its blob's row. */
export const MismatchedFile = z.object({
  repoKey: z.string(),
  path: z.string(),
  sha256: z.string(),
  field: z.enum(['size', 'sha1', 'md5']),
  file: z.union([z.string(), z.number()]),
  blob: z.union([z.string(), z.number()]),
})

/** A file in the blob store (path relative to it) that no row names, or a temp file. */
export const StrayFile = z.object({ path: z.string(), size: z.number(), ageMs: z.number() })

/** What `trove doctor` and `POST /api/system/doctor` answer. */
export const IntegrityReport = z.object({
  /** No corrupt, dangling or mismatched entries and no missing blob a row names (the rest are warnings). */
  ok: z.boolean(),
  blobsChecked: z.number(),
  bytesChecked: z.number(),
  missing: z.array(MissingBlob),
  corrupt: z.array(CorruptBlob),
  danglingFiles: z.array(DanglingReference),
  mismatchedFiles: z.array(MismatchedFile),
  /** Files in the store no blob row names: space only (a restore may hold a few, see docs/operations.md). */
  orphanBlobs: z.array(StrayFile),
  /** Files in the store's temp dir: uploads in progress, or (stale, older than a day) ones that died. */
  tempFiles: z.array(StrayFile.extend({ stale: z.boolean() })),
  /** Blob rows no referrer names: the blob GC frees them once untouched for an hour. */
  unreferencedBlobs: z.number(),
  /** How many of each kind were found; the lists stop at a limit. */
  totals: z.object({
    missing: z.number(),
    /** Of the missing, those a row names. */
    missingReferenced: z.number(),
    corrupt: z.number(),
    danglingFiles: z.number(),
    mismatchedFiles: z.number(),
    orphanBlobs: z.number(),
  }),
  durationMs: z.number(),
})
export type IntegrityReport = z.infer<typeof IntegrityReport>

export const DoctorQuery = z.object({
  /** `true`: check that every file exists with its size, without hashing (fast). */
  sizesOnly: z.enum(['true', 'false']).optional(),
})
