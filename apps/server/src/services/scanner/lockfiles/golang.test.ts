import { describe, expect, it } from 'vitest'
import { parseManifest } from './index.js'

const brief = (components: { name: string; version: string }[]) => components.map((c) => `${c.name}@${c.version}`)

describe('go.mod', () => {
  it('reads require lines and blocks, with versions as OSV writes them', () => {
    const mod = `module example.com/app

go 1.21

require github.com/google/uuid v1.4.0

require (
	golang.org/x/net v0.17.0 // indirect
	github.com/pkg/errors v0.9.1
	gopkg.in/yaml.v3 v3.0.1
	github.com/old/thing v2.0.0+incompatible
)

exclude github.com/pkg/errors v0.8.0
`
    const components = parseManifest('src/go.mod', Buffer.from(mod))
    expect(brief(components)).toEqual([
      'github.com/google/uuid@1.4.0',
      'golang.org/x/net@0.17.0',
      'github.com/pkg/errors@0.9.1',
      'gopkg.in/yaml.v3@3.0.1',
      'github.com/old/thing@2.0.0+incompatible',
    ])
    expect(components[0]).toEqual({ ecosystem: 'Go', name: 'github.com/google/uuid', version: '1.4.0', path: 'src/go.mod' })
  })

  it('reports what a replace directive builds instead', () => {
    const mod = `module example.com/app

require (
	github.com/a/a v1.0.0
	github.com/b/b v1.0.0
	example.com/local v1.2.3
)

replace github.com/a/a => github.com/fork/a v1.0.1
replace (
	github.com/b/b v1.0.0 => github.com/fork/b v1.1.0
	example.com/local => ../local
)
`
    expect(brief(parseManifest('go.mod', Buffer.from(mod)))).toEqual([
      'github.com/fork/a@1.0.1',
      'github.com/fork/b@1.1.0',
      'example.com/local@1.2.3',
    ])
  })
})

describe('go.sum', () => {
  it('reads each module version once, /go.mod lines included', () => {
    const sum = `github.com/google/uuid v1.4.0 h1:MtMxsa51/r9yyhkyLsVeVt0B+BGQZzpQiTQ4eHZ8bc4=
github.com/google/uuid v1.4.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=
github.com/pkg/errors v0.8.0/go.mod h1:bwawxfHBFNV+L2hUp1rHADufV3IMtnDRdf1r5NINEl0=
golang.org/x/net v0.17.0 h1:pVaXccu2ozPjCXewfr1S2xoj2xO0gkp+0i6ikNvEUTQ=

`
    expect(brief(parseManifest('go.sum', Buffer.from(sum)))).toEqual([
      'github.com/google/uuid@1.4.0',
      'github.com/pkg/errors@0.8.0',
      'golang.org/x/net@0.17.0',
    ])
  })
})
