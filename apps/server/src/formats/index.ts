import type { FilesChanged } from '../storage/context.js'
import { cargoFormat } from './cargo/index.js'
import { composerFormat } from './composer/index.js'
import { debianFormat } from './debian/index.js'
import { dockerFormat } from './docker/index.js'
import { gemsFormat } from './gems/index.js'
import { genericFormat } from './generic/index.js'
import { goFormat } from './go/index.js'
import { helmFormat } from './helm/index.js'
import type { Format, FormatContext, VersionOrder } from './kit/types.js'
import { mavenFormat } from './maven/index.js'
import { npmFormat } from './npm/index.js'
import { nugetFormat } from './nuget/index.js'
import { pypiFormat } from './pypi/index.js'

/** Every package format Trove serves. A new format is a folder beside this file and one line here. */
export const formats: Format[] = [
  npmFormat,
  genericFormat,
  mavenFormat,
  pypiFormat,
  dockerFormat,
  helmFormat,
  goFormat,
  cargoFormat,
  gemsFormat,
  composerFormat,
  debianFormat,
  nugetFormat,
]

/** By package type, what each format does when files of its repositories change through the tree. */
export function filesChangedHooks(fctx: FormatContext): Map<string, FilesChanged> {
  const hooks = new Map<string, FilesChanged>()
  for (const f of formats) if (f.filesChanged) hooks.set(f.type, f.filesChanged(fctx))
  return hooks
}

/** The format of a package type, if Trove serves it. */
export const formatOf = (type: string): Format | undefined => formats.find((f) => f.type === type)

/** How `type`'s own tools order versions (the format declares it): for the scanner's matching. */
export function versionOrderOf(type: string): VersionOrder {
  const order = formatOf(type)?.versions
  if (!order) throw new Error(`The ${type} format declares no version order`)
  return order
}

// What the services above use of the formats' shared kit.
export { deployFile, deployTarget, fileInfo, matrixParams } from './kit/files.js'
export { conditionalAnswers, rawBodies } from './kit/http.js'
export { allKept, onKeepFailure } from './kit/keepLater.js'
export { repositoryPathRoutes } from './kit/paths.js'
export type {
  Advisories,
  Format,
  FormatContext,
  NpmBulkAdvisory,
  PathHandler,
  StoredFile,
  VersionOrder,
} from './kit/types.js'
