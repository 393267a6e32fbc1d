import path from 'node:path'
import type { Component } from '../types.js'
import type { OsRelease } from './osPackages.js'

/** What one file of interest in the image's filesystem yielded. */
export interface FileFinding {
  components: Component[]
  os?: OsRelease
  /** Why the file could not be read (too large, not the format its name says). */
  problem?: string
  /** The digest of the layer the file came from. */
  layer: string
}

/** What one layer does to the files of interest below it. */
export interface LayerChanges {
  /** Files of interest this layer writes (replacing any below at the same path). */
  files: Map<string, FileFinding>
  /** Paths this layer writes as something else than a file of interest: what was there is gone. */
  replaced: Set<string>
  /** Paths removed with everything beneath them: whiteouts, and files written over directories. */
  removedTrees: Set<string>
  /** Directories made opaque: nothing from lower layers shows beneath them. */
  opaqueDirs: Set<string>
}

export const emptyChanges = (): LayerChanges => ({
  files: new Map(),
  replaced: new Set(),
  removedTrees: new Set(),
  opaqueDirs: new Set(),
})

/**
 * The files of interest of the union filesystem the layers so far make, as the OCI image spec's
 * overlay rules give it: a later layer's file replaces an earlier one, `.wh.<name>` removes a path
 * and everything beneath it, `.wh..wh..opq` hides everything a directory held in lower layers.
 * Only files of interest are tracked, so the state stays small whatever the image holds.
 */
export class Overlay {
  private readonly files = new Map<string, FileFinding>()
  /** Every directory holding a file of interest, so a whiteout that touches none costs a lookup. */
  private directories = new Set<string>()

  get(filePath: string): FileFinding | undefined {
    return this.files.get(filePath)
  }

  /** Whether a file of interest is at `filePath` or beneath it. */
  holds(filePath: string): boolean {
    return this.files.has(filePath) || this.directories.has(filePath)
  }

  apply(changes: LayerChanges): void {
    for (const dir of changes.opaqueDirs) this.removeBeneath(dir)
    for (const tree of changes.removedTrees) {
      this.files.delete(tree)
      this.removeBeneath(tree)
    }
    for (const filePath of changes.replaced) this.files.delete(filePath)
    for (const [filePath, finding] of changes.files) this.files.set(filePath, finding)
    this.directories = new Set()
    for (const filePath of this.files.keys()) {
      for (let dir = path.posix.dirname(filePath); dir !== '.'; dir = path.posix.dirname(dir)) this.directories.add(dir)
    }
  }

  /** The surviving files of interest, by path. */
  entries(): [string, FileFinding][] {
    return [...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  }

  /** Removes every file beneath `dir` ("" is the root). */
  private removeBeneath(dir: string): void {
    if (dir === '') {
      this.files.clear()
      return
    }
    if (!this.directories.has(dir)) return
    const prefix = `${dir}/`
    for (const filePath of [...this.files.keys()]) if (filePath.startsWith(prefix)) this.files.delete(filePath)
  }
}
