import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Deployment } from 'kubernetes-models/apps/v1'
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1'
import { afterAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'

/**
 * The deployment files (Containerfile, deploy/): the image's structure, its entrypoint script run
 * against the built server, the Kubernetes manifests against the Kubernetes API's schemas
 * (kubernetes-models, offline), and haproxy's and systemd's own checks of their files. Building
 * the image itself needs a Node.js 20 base image: with TROVE_TEST_IMAGE_BASE naming a local one
 * (deploy/container/local-node-base.sh makes one without a registry), podman builds and runs it.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const MAIN = path.join(ROOT, 'apps/server/dist/src/main.js')
const ENTRYPOINT = path.join(ROOT, 'deploy/container/entrypoint.sh')
const HEALTHCHECK = path.join(ROOT, 'deploy/container/healthcheck.mjs')
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')
/** The Node.js flags every launcher starts the server with (docs/operations.md, "Node.js flags"). */
const NODE_FLAGS = ['--no-memory-reducer', '--initial-old-space-size=128']
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const temps: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-deploy-'))
  temps.push(dir)
  return dir
}
/** Process groups of the scripts started: whatever a failed test left running ends with it. */
const groups: number[] = []
afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true })
})

interface Instruction {
  op: string
  args: string
}

/** A Containerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/)
      return { op: op.toUpperCase(), args: rest.join(' ') }
    })
}

/** The settings the server reads: the names in core/config.ts's schema. */
const SETTINGS = new Set([...read('apps/server/src/core/config.ts').matchAll(/^\s+(TROVE_[A-Z0-9_]+):/gm)].map((m) => m[1]))

describe('Containerfile', () => {
  const all = instructions(read('Containerfile'))
  const lastFrom = all.map((i) => i.op).lastIndexOf('FROM')
  const final = all.slice(lastFrom)
  const one = (op: string) => final.filter((i) => i.op === op)

  it('runs on Node.js 20 slim, as a non-root user given by number', () => {
    const arg = all.find((i) => i.op === 'ARG' && i.args.startsWith('NODE_IMAGE='))
    expect(arg?.args).toBe('NODE_IMAGE=docker.io/library/node:20-slim')
    expect(all.filter((i) => i.op === 'FROM').map((i) => i.args.split(' ')[0])).toEqual([
      '$' + '{NODE_IMAGE}',
      '$' + '{NODE_IMAGE}',
    ])
    const users = one('USER')
    expect(users).toHaveLength(1)
    const [uid, gid] = (users[0]?.args ?? '').split(':').map(Number)
    expect(uid).toBeGreaterThan(0)
    expect(gid).toBeGreaterThan(0)
    // The user exists in the image and owns the data dir.
    const run = one('RUN')
      .map((i) => i.args)
      .join(' ')
    expect(run).toContain(`useradd --system --uid ${uid} --gid ${gid}`)
    expect(run).toContain(`chown ${uid}:${gid} /var/lib/trove`)
  })

  it('keeps TROVE_DATA_DIR on a volume, exposes the port and checks the ping endpoint', () => {
    const env = one('ENV')
      .map((i) => i.args)
      .join(' ')
    expect(env).toMatch(/TROVE_DATA_DIR=\/var\/lib\/trove\b/)
    expect(env).toMatch(/TROVE_PORT=8080\b/)
    expect(one('VOLUME').map((i) => JSON.parse(i.args))).toEqual([['/var/lib/trove']])
    expect(one('EXPOSE').map((i) => i.args)).toEqual(['8080'])
    const health = one('HEALTHCHECK')
    expect(health).toHaveLength(1)
    expect(health[0]?.args).toMatch(/CMD \["node", "\/opt\/trove\/healthcheck\.mjs"\]$/)
    expect(fs.readFileSync(HEALTHCHECK, 'utf8')).toContain('/api/system/ping')
    expect(one('ENTRYPOINT').map((i) => JSON.parse(i.args))).toEqual([['/usr/bin/tini', '--', '/opt/trove/entrypoint.sh']])
  })

  it('copies what the built server needs, and the build context holds every file it copies', () => {
    const copies = all.filter((i) => i.op === 'COPY')
    const fromContext = copies.filter((i) => !i.args.startsWith('--from='))
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
    for (const copy of fromContext) {
      const sources = copy.args.split(' ').slice(0, -1)
      for (const source of sources.filter((s) => s !== '.')) {
        expect(fs.existsSync(path.join(ROOT, source)), source).toBe(true)
        expect(
          ignored.some((pattern) => source.split('/').includes(pattern.replace('**/', ''))),
          source,
        ).toBe(false)
      }
    }
    // Every workspace's manifest reaches npm ci, else it fails on the lock file.
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces
    for (const ws of workspaces) expect(fromContext.map((c) => c.args)).toContain(`${ws}/package.json ${ws}/`)
    const runtime = final.filter((i) => i.op === 'COPY' && i.args.startsWith('--from=build')).map((i) => i.args.split(' ')[1])
    for (const needed of [
      '/src/node_modules',
      '/src/apps/server/node_modules',
      '/src/apps/server/dist',
      '/src/apps/web/dist',
      '/src/packages/contracts/node_modules',
      '/src/packages/contracts/dist',
    ]) {
      expect(runtime).toContain(needed)
    }
  })
})

describe('the entrypoint script', () => {
  /** Starts the script as the image does, with the repository as TROVE_HOME. */
  function start(dataDir: string, args: string[] = [], env: Record<string, string> = {}) {
    const child = spawn('sh', [ENTRYPOINT, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        TROVE_HOME: ROOT,
        TROVE_DATA_DIR: dataDir,
        TROVE_PORT: '0',
        TROVE_HOST: '127.0.0.1',
        TROVE_NODE_ID: 'container-test',
        TROVE_ADMIN_PASSWORD: 'entrypoint-test-password',
        TROVE_HEARTBEAT_MS: '60000',
        TROVE_BLOB_GC_INTERVAL_S: '0',
        TROVE_GIT_REFRESH_INTERVAL_S: '0',
        TROVE_GIT_RETEST_INTERVAL_S: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    if (child.pid) groups.push(child.pid)
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    )
    return { child, exited, output: () => out }
  }

  async function running(p: { child: ChildProcess; output: () => string }): Promise<number> {
    const deadline = Date.now() + 30_000
    for (;;) {
      const port = /Trove is running: http:\/\/127\.0\.0\.1:(\d+)\//.exec(p.output())?.[1]
      if (port) return Number(port)
      if (p.child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start: ${p.output()}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  const healthcheck = (port: number) =>
    spawnSync(process.execPath, [HEALTHCHECK], { env: { TROVE_PORT: String(port), TROVE_HOST: '0.0.0.0' } }).status

  it('starts the built server on the data dir, becomes the server (exec) and stops with exit 0 on SIGTERM', async () => {
    expect(fs.existsSync(MAIN), 'the built server: npm run build').toBe(true)
    const dataDir = path.join(tempDir(), 'data')
    const p = start(dataDir)
    const port = await running(p)
    const ping = await fetch(`http://127.0.0.1:${port}/api/system/ping`)
    expect(ping.status).toBe(200)
    expect(await ping.text()).toBe('OK')
    expect(healthcheck(port)).toBe(0)
    // The shell replaced itself with Node.js: the signal reaches the server, not a shell in between.
    const cmdline = fs.readFileSync(`/proc/${p.child.pid}/cmdline`, 'utf8').split('\0')
    expect(cmdline.slice(0, 4)).toEqual([expect.stringMatching(/node$/), ...NODE_FLAGS, MAIN])
    expect(fs.existsSync(path.join(dataDir, 'trove.db'))).toBe(true)
    p.child.kill('SIGTERM')
    expect(await p.exited).toBe(0)
    expect(healthcheck(port)).toBe(1)
    // The server's commands go through it with the same settings.
    const doctor = start(dataDir, ['doctor', '--sizes-only'])
    expect(await doctor.exited, doctor.output()).toBe(0)
  })

  it('says so, with exit code 2, when the data dir cannot be made or written', async () => {
    const file = path.join(tempDir(), 'a-file')
    fs.writeFileSync(file, '')
    const p = start(path.join(file, 'data'))
    expect(await p.exited).toBe(2)
    expect(p.output()).toMatch(/TROVE_DATA_DIR .*a-file\/data cannot be written by uid \d+ gid \d+/)
    const missing = start(tempDir(), [], { TROVE_HOME: tempDir() })
    expect(await missing.exited).toBe(2)
    expect(missing.output()).toContain('the built server is not at')
  })

  it('runs anything else as given', async () => {
    const p = start(tempDir(), ['sh', '-c', 'echo "$TROVE_DATA_DIR" $$'])
    expect(await p.exited).toBe(0)
    expect(p.output()).toMatch(new RegExp(`^${os.tmpdir()}/trove-deploy-\\w+ ${p.child.pid}\\n$`))
  })
})

describe('Kubernetes manifests', () => {
  const dir = path.join(ROOT, 'deploy/kubernetes')
  const docs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => {
        expect(d.errors, f).toEqual([])
        return { file: f, object: d.toJS() as { apiVersion: string; kind: string; metadata: { name: string } } }
      }),
    )
  const models: Record<string, new (data: never) => { validate(): void }> = {
    'apps/v1/Deployment': Deployment,
    'v1/Service': Service,
    'v1/ConfigMap': ConfigMap,
    'v1/Secret': Secret,
  }

  it('are a Deployment, a Service, a ConfigMap and Secrets, valid against the Kubernetes API schemas, without a PVC', () => {
    expect(docs.map((d) => d.object.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Secret', 'Secret', 'Service'])
    for (const { file, object } of docs) {
      const Model = models[`${object.apiVersion}/${object.kind}`]
      expect(Model, `${file}: ${object.apiVersion} ${object.kind}`).toBeDefined()
      expect(() => new (Model as NonNullable<typeof Model>)(object as never).validate(), file).not.toThrow()
    }
    // The schema check itself finds a mistake.
    const deployment = docs.find((d) => d.object.kind === 'Deployment')?.object as never as Deployment
    const broken = structuredClone(deployment) as unknown as { spec: { replicas: unknown } }
    broken.spec.replicas = 'three'
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas must be integer/)
  })

  it('fit the image and the server: settings it reads, the ping probes, its user, its data dir', () => {
    const byKind = <T>(kind: string) => docs.filter((d) => d.object.kind === kind).map((d) => d.object as unknown as T)
    const [config] = byKind<ConfigMap>('ConfigMap') as [ConfigMap]
    const [settings, masterKey] = byKind<Secret>('Secret')
    const [deployment] = byKind<Deployment>('Deployment') as [Deployment]
    const names = [...Object.keys(config.data ?? {}), ...Object.keys(settings?.stringData ?? {})]
    const pod = deployment.spec?.template.spec
    const container = pod?.containers[0]
    for (const name of [...names, ...(container?.env ?? []).map((e) => e.name).filter((n) => n.startsWith('TROVE_'))]) {
      expect(SETTINGS, name).toContain(name)
    }
    expect(container?.envFrom?.map((e) => e.configMapRef?.name ?? e.secretRef?.name)).toEqual([
      config.metadata?.name,
      settings?.metadata?.name,
    ])
    for (const probe of [container?.startupProbe, container?.readinessProbe, container?.livenessProbe]) {
      expect(probe?.httpGet?.path).toBe('/api/system/ping')
    }
    const user = instructions(read('Containerfile')).findLast((i) => i.op === 'USER')?.args
    expect(`${pod?.securityContext?.runAsUser}:${pod?.securityContext?.runAsGroup}`).toBe(user)
    expect(pod?.securityContext?.runAsNonRoot).toBe(true)
    // The data dir is the image's, a volume per pod; the master key the nodes share is the Secret's file.
    const mounts = Object.fromEntries((container?.volumeMounts ?? []).map((m) => [m.mountPath, m]))
    expect(mounts['/var/lib/trove']?.name).toBe('data')
    const keyFile = container?.env?.find((e) => e.name === 'TROVE_MASTER_KEY_FILE')?.value ?? ''
    const keyMount = mounts[path.dirname(keyFile)]
    expect(keyMount).toMatchObject({ name: 'master-key', readOnly: true })
    expect(Object.keys(masterKey?.stringData ?? {})).toEqual([path.basename(keyFile)])
    expect(pod?.volumes?.find((v) => v.name === 'data')?.emptyDir).toBeDefined()
    expect(pod?.volumes?.find((v) => v.name === keyMount?.name)?.secret?.secretName).toBe(masterKey?.metadata?.name)
    expect(pod?.volumes?.some((v) => v.persistentVolumeClaim)).toBe(false)
    expect(config.data?.TROVE_LOG_DIR).toBe(mounts['/var/log/trove']?.mountPath)
  })
})

describe('the Node.js flags', () => {
  // A node streaming a large blob ran a full garbage collection every few dozen megabytes without
  // them (docs/operations.md, "Node.js flags"); the entrypoint's are checked above.
  it('npm start, the quick start and the systemd unit start the server with them', () => {
    const flags = NODE_FLAGS.join(' ')
    expect(JSON.parse(read('package.json')).scripts.start).toBe(`node ${flags} apps/server/dist/src/main.js`)
    expect(read('scripts/quickstart.sh')).toContain(`\nexec node ${flags} apps/server/dist/src/main.js\n`)
    expect(read('deploy/systemd/trove.service')).toContain(
      `\nExecStart=/usr/bin/node ${flags} /opt/trove/apps/server/dist/src/main.js\n`,
    )
  })

  it('with them, a gigabyte streamed through a server with a 50 MB heap runs no full collection', () => {
    // V8 counts the request's buffers not yet collected (up to 32 MB before it runs a young
    // collection) against the old generation's room to grow; where that room is smaller (V8 left
    // ~9 MB over a 52 MB heap in the server: a growing factor of about 1.15, fixed here at 1.1), every
    // young collection of the stream started a full one. --initial-old-space-size keeps that room.
    const script = path.join(ROOT, 'apps/server/test/streamGc.mjs')
    const fullCollections = (flags: string[]) => {
      const out = execFileSync(process.execPath, [...flags, '--heap-growing-percent=10', script, '1024'], { encoding: 'utf8' })
      return (JSON.parse(out) as { full: number }).full
    }
    expect(fullCollections([]), 'the stream without the flags: full collections as it goes').toBeGreaterThanOrEqual(8)
    expect(fullCollections(NODE_FLAGS)).toBeLessThanOrEqual(1)
  })
})

describe('haproxy and systemd', () => {
  it.skipIf(!has('haproxy'))('haproxy takes the cluster configuration, which checks the ping endpoint', () => {
    const cfg = path.join(ROOT, 'deploy/haproxy/haproxy.cfg')
    expect(execFileSync('haproxy', ['-c', '-f', cfg], { encoding: 'utf8' })).toContain('Configuration file is valid')
    expect(fs.readFileSync(cfg, 'utf8')).toMatch(/option httpchk GET \/api\/system\/ping/)
    // As the generator writes it (services/instance/haproxyConfig.ts).
    expect(fs.readFileSync(cfg, 'utf8')).toMatch(/^ {4}balance leastconn$/m)
  })

  it.skipIf(!has('systemd-analyze'))('systemd verifies the unit, which starts the built server', () => {
    const unit = path.join(ROOT, 'deploy/systemd/trove.service')
    const result = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' })
    expect(result.status, result.stderr).toBe(0)
    expect(fs.readFileSync(unit, 'utf8')).toContain(
      `ExecStart=/usr/bin/node ${NODE_FLAGS.join(' ')} /opt/trove/apps/server/dist/src/main.js`,
    )
  })
})

/**
 * The image built and run with podman. Needs a local Node.js 20 base image, since no registry may be
 * reachable: TROVE_TEST_IMAGE_BASE=localhost/trove-node-base:20-bookworm after
 * deploy/container/local-node-base.sh. Slow the first time (npm ci and the build inside).
 */
const BASE = process.env.TROVE_TEST_IMAGE_BASE
describe.skipIf(!BASE || !has('podman'))('the image (podman)', () => {
  // Where crun cannot set up a container (cgroups v1 hybrid, no CAP_SYS_RESOURCE), runc with
  // limits no higher than the caller's may.
  const runtime = has('runc') ? ['--runtime', 'runc'] : []
  const nofile = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim()
  const limits = ['--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', 'nproc=4096:4096']
  const tag = 'localhost/trove-test:latest'
  const podman = (args: string[], timeout = 60_000) =>
    spawnSync('podman', [...runtime, ...args], { encoding: 'utf8', timeout, maxBuffer: 64 << 20 })

  it('builds, runs as its user, answers the health check on a volume, and stops on SIGTERM with exit 0', async () => {
    const build = podman(
      [
        'build',
        '--format',
        'docker',
        ...limits,
        // This machine's own CA, where a proxy re-signs the npm registry's TLS.
        ...(process.env.NODE_EXTRA_CA_CERTS ? ['--secret', `id=build_ca,src=${process.env.NODE_EXTRA_CA_CERTS}`] : []),
        '--build-arg',
        `NODE_IMAGE=${BASE}`,
        '-t',
        tag,
        '-f',
        'Containerfile',
        ROOT,
      ],
      1_500_000,
    )
    expect(build.status, build.stderr.slice(-3000)).toBe(0)
    const image = JSON.parse(podman(['image', 'inspect', tag]).stdout)[0]
    expect(image.Config.User).toBe('10001:10001')
    expect(Object.keys(image.Config.Volumes)).toEqual(['/var/lib/trove'])
    expect(image.Healthcheck.Test).toEqual(['CMD', 'node', '/opt/trove/healthcheck.mjs'])
    const name = `trove-test-${process.pid}`
    const volume = `trove-test-data-${process.pid}`
    const run = podman(['run', '-d', '--name', name, ...limits, '-v', `${volume}:/var/lib/trove`, '-p', '127.0.0.1::8080', tag])
    expect(run.status, run.stderr).toBe(0)
    try {
      const port = podman(['port', name, '8080']).stdout.trim().split(':').pop()
      const deadline = Date.now() + 60_000
      let answer = ''
      while (Date.now() < deadline && answer !== 'OK') {
        answer = await fetch(`http://127.0.0.1:${port}/api/system/ping`).then(
          (r) => r.text(),
          () => '',
        )
        if (answer !== 'OK') await new Promise((r) => setTimeout(r, 500))
      }
      expect(answer).toBe('OK')
      expect(podman(['healthcheck', 'run', name]).status).toBe(0)
      expect(podman(['exec', name, 'id', '-u']).stdout.trim()).toBe('10001')
      expect(podman(['exec', name, 'ls', '/var/lib/trove']).stdout).toContain('trove.db')
      expect(podman(['stop', '-t', '30', name]).status).toBe(0)
      expect(podman(['inspect', name, '--format', '{{.State.ExitCode}}']).stdout.trim()).toBe('0')
    } finally {
      podman(['rm', '-f', name])
      podman(['volume', 'rm', '-f', volume])
    }
  }, 1_800_000)
})
