/**
 * A software WebAuthn authenticator for tests: ES256 keys from node:crypto, real attestation objects
 * (fmt "none") and assertions, CBOR-encoded, as a browser would hand them to the page.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { cborEncode } from "./cbor";

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) =>
  createHash("sha256")
    .update(typeof b === "string" ? b : new Uint8Array(b))
    .digest();
const u32 = (n: number) => Buffer.from([(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answers navigator.credentials.create() for these options (challenge/origin overridable to test refusals). */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, over: { challenge?: string; origin?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" }) as unknown as { x: string; y: string };
    const cose = cborEncode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y, "base64url"))],
      ]),
    );
    const cred: Credential = { id: randomBytes(32), privateKey, publicKey, userHandle: options.user.id, counter: 0 };
    const authData = Buffer.concat([
      sha256(options.rp.id ?? this.rpId),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      u32(cred.counter),
      Buffer.alloc(16), // aaguid
      Buffer.from([cred.id.length >> 8, cred.id.length & 0xff]),
      cred.id,
      Buffer.from(cose),
    ]);
    const attestationObject = cborEncode({ fmt: "none", attStmt: {}, authData: new Uint8Array(authData) });
    const clientDataJSON = this.clientData("webauthn.create", over.challenge ?? options.challenge, over.origin ?? this.origin);
    this.credentials.push(cred);
    return {
      id: b64url(cred.id),
      rawId: b64url(cred.id),
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * Answers navigator.credentials.get(): signs authenticatorData ‖ SHA-256(clientDataJSON) with the
   * credential's key. `counter` overrides the signature counter (to test replays).
   */
  assert(
    options: { challenge: string; rpId?: string },
    over: { credential?: Credential; challenge?: string; counter?: number; origin?: string; userVerified?: boolean } = {},
  ) {
    const cred = over.credential ?? this.credentials[0];
    if (!cred) throw new Error("no credential registered");
    cred.counter = over.counter ?? cred.counter + 1;
    // userVerified false: the authenticator saw a touch but checked no PIN or biometric
    const flags = over.userVerified === false ? FLAG_UP : FLAG_UP | FLAG_UV;
    const authData = Buffer.concat([sha256(options.rpId ?? this.rpId), Buffer.from([flags]), u32(cred.counter)]);
    const clientDataJSON = this.clientData("webauthn.get", over.challenge ?? options.challenge, over.origin ?? this.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: b64url(cred.id),
      rawId: b64url(cred.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: cred.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
