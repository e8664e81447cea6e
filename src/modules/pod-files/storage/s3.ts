import { createHash, createHmac } from 'node:crypto';
import { checkKey, type FileStore } from './fileStore.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as Signature V4 wants each path segment. */
const encodeSegment = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * An S3-compatible store (AWS S3, MinIO, Ceph, moto...) reached with path-style requests
 * (`<endpoint>/<bucket>/<key>`) signed with AWS Signature Version 4, written on node:crypto and fetch: the service
 * needs three calls, not an SDK.
 */
export class S3FileStore implements FileStore {
  private readonly s3: S3Settings;
  private readonly clock: () => Date;

  constructor(s3: S3Settings, clock: () => Date = () => new Date()) {
    this.s3 = s3;
    this.clock = clock;
  }

  private async send(method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Buffer, contentType?: string) {
    const url = new URL(
      `${this.s3.endpoint}/${encodeSegment(this.s3.bucket)}/${checkKey(key).split('/').map(encodeSegment).join('/')}`,
    );
    const payloadHash = sha256Hex(body ?? '');
    const amzDate = this.clock()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDate,
      ...(contentType && { 'content-type': contentType }),
    };
    const names = Object.keys(headers).sort();
    const canonical = [
      method,
      url.pathname,
      '',
      ...names.map((n) => `${n}:${headers[n]!.trim()}`),
      '',
      names.join(';'),
      payloadHash,
    ].join('\n');
    const scope = `${day}/${this.s3.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
    let signingKey = hmac(`AWS4${this.s3.secretAccessKey}`, day);
    for (const part of [this.s3.region, 's3', 'aws4_request']) signingKey = hmac(signingKey, part);
    const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
    const { host: _host, ...sent } = headers;
    return fetch(url, {
      method,
      headers: {
        ...sent,
        authorization: `AWS4-HMAC-SHA256 Credential=${this.s3.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
      },
      body,
      signal: AbortSignal.timeout(30_000),
    });
  }

  private static async fail(what: string, res: Response): Promise<never> {
    const text = (await res.text()).slice(0, 300);
    throw new Error(`S3 ${what} answered ${res.status}: ${text}`);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, bytes, contentType);
    if (!res.ok) await S3FileStore.fail('PUT', res);
    await res.body?.cancel();
  }

  async get(key: string): Promise<Buffer | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) await S3FileStore.fail('GET', res);
    return Buffer.from(await res.arrayBuffer());
  }

  async remove(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) await S3FileStore.fail('DELETE', res);
    await res.body?.cancel();
  }
}
