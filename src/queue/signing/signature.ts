// Upstash-Signature: an HS256 JWT (jose) that the SDK's Receiver.verify accepts: issuer
// "Upstash", subject the destination URL, `body` the base64url SHA-256 of the exact body bytes,
// valid from now for five minutes, with a unique jti.

import { createHash, randomUUID, webcrypto } from 'node:crypto';

const VALID_FOR_S = 300;

/** jose, loaded at the first signature: a start that delivers nothing needs none of its 46 modules. */
let jose: Promise<typeof import('jose')> | undefined;

export async function sign(key: string, url: string, body: Uint8Array, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  const { SignJWT } = await (jose ??= import('jose'));
  return new SignJWT({ body: createHash('sha256').update(body).digest('base64url') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(url)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + VALID_FOR_S)
    .setJti(`jwt_${randomUUID()}`)
    .sign(await hmacKey(key));
}

/**
 * The signing key as a WebCrypto key, imported once per key rather than by jose on every
 * signature (Node's WebCrypto import is a good part of a delivery's cost there).
 */
let imported: { secret: string; key: Promise<webcrypto.CryptoKey> } | null = null;

function hmacKey(secret: string): Promise<webcrypto.CryptoKey> {
  if (imported?.secret !== secret) {
    imported = { secret, key: webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']) };
  }
  return imported.key;
}
