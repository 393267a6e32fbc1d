import { cargoFormat } from './cargo/index.js'
import { composerFormat } from './composer/index.js'
import { debianFormat } from './debian/index.js'
import { dockerFormat } from './docker/index.js'
import { gemsFormat } from './gems/index.js'
import { genericFormat } from './generic/index.js'
import { goFormat } from './go/index.js'
import { helmFormat } from './helm/index.js'
import { mavenFormat } from './maven/index.js'
import { npmFormat } from './npm/index.js'
import { nugetFormat } from './nuget/index.js'
import { pypiFormat } from './pypi/index.js'
import type { Format } from './types.js'

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
