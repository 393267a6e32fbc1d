// Writes .br and .gz beside every text asset of the build, so the server sends compressed files
// without compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = new URL('../dist', import.meta.url).pathname
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) yield* walk(full)
    else yield full
  }
}

let count = 0
for (const file of walk(root)) {
  if (!TEXT.test(file)) continue
  const data = readFileSync(file)
  if (data.length < 1024) continue
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }))
  count++
}
console.log(`precompressed ${count} files`)
