// Streams N MB (argv[2]) of HTTP request body through a server in this process, with a heap of
// about 50 MB that stays (as a node's after a while of serving), and prints how many full garbage
// collections ran meanwhile: {"full": N}. deploy.test.ts runs it with the launchers' Node.js flags.
import http from 'node:http'
import { constants, PerformanceObserver } from 'node:perf_hooks'

globalThis.kept = Array.from({ length: 500_000 }, (_, i) => ({ i, name: `k${i}` }))
let full = 0
let counting = false
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (counting && entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++
}).observe({ entryTypes: ['gc'] })

const megabytes = Number(process.argv[2] ?? 1024)
const server = http.createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => res.end())
})
server.listen(0, '127.0.0.1', () => {
  // The collections that built the heap are over before the count starts.
  setTimeout(() => {
    counting = true
    const chunk = Buffer.alloc(64 * 1024)
    const req = http.request({ host: '127.0.0.1', port: server.address().port, method: 'PUT', path: '/' }, (res) => {
      res.resume()
      res.on('end', () => {
        counting = false
        console.log(JSON.stringify({ full }))
        server.close()
      })
    })
    let left = megabytes * 16
    const send = () => {
      while (left > 0) {
        left--
        if (!req.write(chunk)) return void req.once('drain', send)
      }
      req.end()
    }
    send()
  }, 200)
})
