import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An HTTP front for a node on loopback that notes every request and its answer, can hold requests
 * back, and can go down and come back on the same port (as a node that stops and starts again);
 * the node behind it may change port (`upstreamPort`).
 */
export class Front {
  server: http.Server | undefined
  port = 0
  /** `METHOD url` of every request, in order. */
  readonly seen: string[] = []
  /** `METHOD url status` of every answer, in order. */
  readonly answered: string[] = []
  /** Waits this long before forwarding a request that matches `slow`. */
  delayMs = 0
  slow: RegExp = /$^/
  /** Called after each answer is sent on. */
  onAnswer: ((line: string) => void) | undefined

  constructor(public upstreamPort: string | number) {}

  async up(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const line = `${req.method} ${req.url}`
      this.seen.push(line)
      const forward = () => {
        const out = http.request(
          { host: '127.0.0.1', port: this.upstreamPort, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            answer.on('end', () => {
              const done = `${line} ${answer.statusCode}`
              this.answered.push(done)
              this.onAnswer?.(done)
            })
          },
        )
        out.on('error', () => res.destroy())
        req.pipe(out)
      }
      if (this.delayMs > 0 && this.slow.test(line)) setTimeout(forward, this.delayMs)
      else forward()
    })
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
  }

  async down(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }
}
