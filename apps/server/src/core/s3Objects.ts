import { PassThrough, type Readable, Transform } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { ConfigError, type S3Settings } from './config.js'
import { BlobStoreUnavailable } from './errors.js'

/** Multipart parts: 16 MB (a 1 GB upload is 64 parts; S3 allows 10,000), 4 in flight. */
const PART_BYTES = 16 * 1024 * 1024
const PARTS_IN_FLIGHT = 4
/** The largest object one CopyObject copies; larger ones are copied part by part. */
const COPY_MAX_BYTES = 5 * 1024 ** 3
/** The largest object one PutObject takes. */
const SINGLE_PUT_MAX_BYTES = 5 * 1024 ** 3

/**
 * Temp objects of the registry's chunked uploads are named `upload-<id>/…`: they live as long as
 * their upload does (formats/docker/bucketUploads.ts removes them), whatever their age.
 */
export const UPLOAD_OBJECTS = 'upload-'
/** A temp object's name (its key after `<prefix>tmp/`) is one of a registry upload's. */
export const isUploadObject = (name: string) => name.startsWith(UPLOAD_OBJECTS)
/** The name prefix of one registry upload's temp objects. */
export const uploadObjects = (id: string) => `${UPLOAD_OBJECTS}${id}/`

/** Node's codes for a connection that could not be made or broke. */
const NETWORK_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
])

/**
 * A bucket that cannot be reached, times out or answers with a server error, as
 * BlobStoreUnavailable (a 503 to the client); any other error as it is.
 */
export function bucketFault(error: unknown): unknown {
  if (error instanceof BlobStoreUnavailable || !(error instanceof Error)) return error
  const causes = [error, ...(error instanceof AggregateError ? error.errors : [])]
  if (causes.some((e) => NETWORK_FAILURES.has(String((e as { code?: unknown })?.code)))) return new BlobStoreUnavailable(error)
  if (error.name === 'TimeoutError' || error.name === 'RequestTimeout') return new BlobStoreUnavailable(error)
  if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 0) >= 500) return new BlobStoreUnavailable(error)
  return error
}

/** `call`'s result, or its failure as bucketFault says. */
async function onBucket<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    throw bucketFault(error)
  }
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey')

/**
 * A multipart upload's parts are sent with an unsigned payload, as a streamed PutObject is: the SDK
 * would otherwise hash every part (a Buffer) with sha256 to sign it, on the event loop's thread —
 * a second sha256 of every byte beside Trove's own (0.6 s of CPU per GB here). On the wire TLS
 * guards the bytes (an https endpoint); in the bucket, an object whose content is not its name is
 * never served (reads check the sha256) and the integrity check reports it.
 */
function unsignPartsOf(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Record<string, string> }
      if (context.commandName === 'UploadPartCommand' && request.headers)
        request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD'
      return next(args)
    },
    { step: 'build', name: 'troveUnsignedParts' },
  )
}

const nothing = () => {}
const SILENT = { trace: nothing, debug: nothing, info: nothing, warn: nothing, error: nothing }

/** A request to the bucket fails after this long without a byte either way. */
const SILENCE_MS = 120_000

/**
 * The objects of the blob store's bucket, through the AWS SDK v3 client: blobs under
 * `<prefix>blobs/ab/cd/<sha256>`, uploads in progress under `<prefix>tmp/<owner>~…`.
 */
export class S3Objects {
  readonly client: S3Client
  /**
   * The same, for one-request uploads of a stream: never retried (a stream read once cannot be
   * sent again; a retry would send less than its length and wait for the rest until the timeout).
   */
  readonly streamClient: S3Client

  /** `silenceMs`: how long a request may go without a byte either way before it fails (tests shorten it). */
  constructor(
    readonly settings: S3Settings,
    silenceMs = SILENCE_MS,
  ) {
    // The SDK warns on Node.js 20 that its releases after January 2027 need 22. Trove runs on 20 with
    // the SDK release its lock file pins, so the warning says nothing to an operator: it is off.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
    this.client = S3Objects.clientOf(settings, silenceMs)
    this.streamClient = S3Objects.clientOf(settings, silenceMs, 1)
  }

  private static clientOf(settings: S3Settings, silenceMs: number, maxAttempts?: number): S3Client {
    const client = new S3Client({
      ...(maxAttempts ? { maxAttempts } : {}),
      region: settings.region,
      // A bucket server that stops answering fails the request (the SDK retries it) instead of
      // holding it: after a silence on the socket (socketTimeout), not after a total time, which
      // would cut a large transfer that is still moving (the SDK's requestTimeout now only warns).
      requestHandler: { connectionTimeout: 10_000, socketTimeout: silenceMs },
      // The SDK's own lines (a failed streamed request) would go to the console; Trove reports the
      // failure itself, in its log and in the answer.
      logger: SILENT,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 requires them: S3-compatible servers differ in the trailing
      // checksums the SDK would otherwise add to every upload, and Trove hashes every byte itself.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    unsignPartsOf(client)
    return client
  }

  blobKey(sha256: string): string {
    return `${this.settings.prefix}blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`
  }

  tempKey(name: string): string {
    return `${this.settings.prefix}tmp/${name}`
  }

  /** A temp key's name (what follows `<prefix>tmp/`). */
  private tempName(key: string): string {
    return key.slice(this.tempKey('').length)
  }

  /**
   * Start-up check: the bucket exists and these credentials may use it. A failure names the
   * setting to look at (the process exits with 2, as for any configuration error).
   */
  async check(): Promise<void> {
    const where = `bucket ${this.settings.bucket}${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`
    try {
      const signal = { abortSignal: AbortSignal.timeout(15_000) }
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }), signal)
      // Writing is what a node does first with its bucket: a read-only key is refused now, not at the first upload.
      const probe = this.tempKey(`.start-check-${process.pid}-${Date.now()}`)
      await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: probe, Body: 'trove' }), signal)
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: probe }), signal)
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined
      if (status === 404) throw new ConfigError(`TROVE_BLOB_STORE: the ${where} does not exist`)
      if (status === 403 || status === 401)
        throw new ConfigError(`TROVE_S3_ACCESS_KEY_ID, TROVE_S3_SECRET_ACCESS_KEY: the ${where} refused these credentials`)
      const message = error instanceof Error ? error.message : String(error)
      if (error instanceof Error && error.name === 'CredentialsProviderError') {
        throw new ConfigError(`TROVE_S3_ACCESS_KEY_ID, TROVE_S3_SECRET_ACCESS_KEY: no credentials for the ${where} (${message})`)
      }
      throw new ConfigError(`TROVE_S3_ENDPOINT: the ${where} cannot be reached (${message})`)
    }
  }

  /**
   * Streams `body` to `key`. Of a known `length` (up to S3's 5 GB for one request), in one PUT:
   * the service writes the object once (s3rver: twice as fast as parts it must join at the end).
   * Else as a multipart upload; one that fails is aborted (its parts freed).
   */
  async upload(key: string, body: Readable, length?: number): Promise<void> {
    if (length !== undefined && length <= SINGLE_PUT_MAX_BYTES) {
      // A body that ends short of its length fails the request at once (the service would wait for the rest).
      let sent = 0
      const exact = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent += chunk.length
          done(sent > length ? new Error(`the body is longer than its ${length} bytes`) : null, chunk)
        },
        flush(done) {
          done(sent === length ? null : new Error(`the body ended after ${sent} of its ${length} bytes`))
        },
      })
      // The SDK does not end its request when the body fails: the failure aborts it.
      const abort = new AbortController()
      let failure: unknown
      exact.on('error', (error) => {
        failure ??= error
        abort.abort(error)
      })
      body.on('error', (error) => exact.destroy(error))
      try {
        await this.streamClient.send(
          new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: body.pipe(exact), ContentLength: length }),
          { abortSignal: abort.signal },
        )
      } catch (error) {
        body.destroy()
        // A service may keep what came of a cut request (s3rver does; S3 does not).
        await this.delete(key).catch(() => {})
        throw failure ?? bucketFault(error)
      }
      return
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // A part that fails fails the upload (the default would complete it without that part); it is aborted below.
      leavePartsOnError: true,
    })
    try {
      await upload.done()
    } catch (error) {
      await upload.abort().catch(() => {})
      body.destroy()
      throw bucketFault(error)
    }
  }

  /**
   * Puts a body held in memory under `key`, unless the key holds an object already (content under
   * its sha256 never changes). The service checks the body against its md5 (Content-MD5); a
   * request that fails on its way (a connection the service closed as it was reused) is sent again.
   */
  async putBody(key: string, body: Buffer, md5: string): Promise<void> {
    if (await this.exists(key)) return
    await onBucket(
      this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentMD5: Buffer.from(md5, 'hex').toString('base64'),
        }),
      ),
    )
  }

  /** The size the bucket holds for a key (undefined when there is none). */
  async size(key: string): Promise<number | undefined> {
    try {
      const head = await onBucket(this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })))
      return head.ContentLength
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await onBucket(this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })))
      return true
    } catch (error) {
      if (isMissing(error)) return false
      throw error
    }
  }

  /**
   * Puts a verified temp object under its final key: copied there unless the same content is
   * stored already, then removed. Objects over 5 GB are copied part by part.
   */
  async promote(tempKey: string, finalKey: string, size: number): Promise<void> {
    if (!(await this.exists(finalKey))) {
      if (size <= COPY_MAX_BYTES) {
        await onBucket(
          this.client.send(
            new CopyObjectCommand({
              Bucket: this.settings.bucket,
              Key: finalKey,
              CopySource: `${this.settings.bucket}/${tempKey.split('/').map(encodeURIComponent).join('/')}`,
            }),
          ),
        )
      } else {
        await this.upload(finalKey, await this.read(tempKey))
      }
    }
    await this.delete(tempKey)
  }

  /** A stream of an object (a byte range, end inclusive, when given). */
  async read(key: string, range?: { start?: number; end?: number }): Promise<Readable> {
    const bytes =
      range && (range.start !== undefined || range.end !== undefined) ? `bytes=${range.start ?? 0}-${range.end ?? ''}` : undefined
    const answer = await onBucket(
      this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range: bytes })),
    )
    return answer.Body as Readable
  }

  /**
   * A stream of an object handed out at once (as a file's read stream is), its data flowing once
   * the bucket answers; a failure to read it ends the stream with the error.
   */
  open(key: string, range?: { start?: number; end?: number }): Readable {
    const out = new PassThrough({ highWaterMark: 1 << 20 })
    this.read(key, range).then(
      (body) => {
        body.on('error', (error) => out.destroy(error))
        out.on('close', () => body.destroy())
        body.pipe(out)
      },
      (error: Error) => out.destroy(error),
    )
    return out
  }

  async readBuffer(key: string): Promise<Buffer> {
    const chunks: Buffer[] = []
    for await (const chunk of await this.read(key)) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }

  async delete(key: string): Promise<void> {
    await onBucket(this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key })))
  }

  /** A URL that reads the object without credentials for `seconds`. */
  presign(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }), { expiresIn: seconds })
  }

  /**
   * Removes temp objects and aborts multipart uploads under `<prefix>tmp/<namePrefix>` that began
   * before `before` (ms), except those whose name `spare` keeps; returns how many.
   */
  async removeTemp(
    namePrefix: string,
    before = Number.POSITIVE_INFINITY,
    spare: (name: string) => boolean = () => false,
  ): Promise<number> {
    const prefix = this.tempKey(namePrefix)
    let removed = 0
    let token: string | undefined
    do {
      const page = await onBucket(
        this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token })),
      )
      for (const object of page.Contents ?? []) {
        if (!object.Key || (object.LastModified && object.LastModified.getTime() >= before)) continue
        if (spare(this.tempName(object.Key))) continue
        await this.delete(object.Key)
        removed++
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    try {
      const uploads = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.settings.bucket, Prefix: prefix }))
      for (const u of uploads.Uploads ?? []) {
        if (!u.Key || !u.UploadId || (u.Initiated && u.Initiated.getTime() >= before)) continue
        if (spare(this.tempName(u.Key))) continue
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.settings.bucket, Key: u.Key, UploadId: u.UploadId }),
        )
        removed++
      }
    } catch (error) {
      // Some S3-compatible servers do not list multipart uploads; their own expiry frees the parts.
      if (!(error instanceof S3ServiceException)) throw error
    }
    return removed
  }

  destroy(): void {
    this.client.destroy()
    this.streamClient.destroy()
  }
}
