/* HMAC-SHA256 for CSRF tokens, from OpenSSL's libcrypto (Debian's libssl-dev): vetted hashing,
 * with the SHA extensions where the CPU has them, and no allocation per token.
 *
 * Why the SHA256_* calls, which OpenSSL 3 marks deprecated: a token is two short hashes of a state
 * the key was absorbed into once (RFC 2104 §2), and only these calls let that state be a plain
 * struct copied on the stack. EVP's digest contexts are heap objects, and copying one allocates;
 * swift-crypto's digests copied theirs on the heap too, which cost a page for a new reader more
 * than the two hashes themselves. The calls are in OpenSSL 3.x, Debian 12's and 13's. They bypass
 * OpenSSL 3's providers, so a FIPS-mode deployment would not count them as its approved module. */
#ifndef FORMWRIGHT_COPENSSL_SHIM_H
#define FORMWRIGHT_COPENSSL_SHIM_H

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A key for HMAC-SHA256: SHA-256 states with the padded key already absorbed. */
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} COpenSSL_HMACKey;

/* Wipes `count` bytes at `bytes` in a way the compiler cannot leave out (a dead store would be).
 * glibc's explicit_bzero (2.25 and later) is its memset behind a barrier: the vector stores every
 * request already runs, where libcrypto's OPENSSL_cleanse stores a word at a time in code of its
 * own, which a new reader's page ran four times. */
static inline void COpenSSL_cleanse(void *bytes, size_t count) { explicit_bzero(bytes, count); }

/* SHA-256 of `count` bytes at `bytes`, into `digest` (32 bytes). */
static inline void COpenSSL_sha256(const uint8_t *bytes, size_t count, uint8_t *digest)
{
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
    COpenSSL_cleanse(&context, sizeof context);
}

/* Absorbs `key` (any length; over a block it is hashed first, RFC 2104 §2) into `hmacKey`. */
static inline void COpenSSL_hmacKey(COpenSSL_HMACKey *hmacKey, const uint8_t *key, size_t count)
{
    uint8_t block[SHA256_CBLOCK] = {0};
    if (count > SHA256_CBLOCK) {
        COpenSSL_sha256(key, count, block);
    } else if (count > 0) {
        memcpy(block, key, count);
    }
    uint8_t pad[SHA256_CBLOCK];
    for (size_t i = 0; i < SHA256_CBLOCK; i++) pad[i] = block[i] ^ 0x36;
    SHA256_Init(&hmacKey->inner);
    SHA256_Update(&hmacKey->inner, pad, sizeof pad);
    for (size_t i = 0; i < SHA256_CBLOCK; i++) pad[i] = block[i] ^ 0x5c;
    SHA256_Init(&hmacKey->outer);
    SHA256_Update(&hmacKey->outer, pad, sizeof pad);
    COpenSSL_cleanse(block, sizeof block);
    COpenSSL_cleanse(pad, sizeof pad);
}

/* Writes the eight words of a SHA-256 state as its 32-byte big-endian digest. */
static inline void COpenSSL_digest(const SHA256_CTX *context, uint8_t *digest)
{
    for (size_t i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(context->h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(context->h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(context->h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)context->h[i];
    }
}

/* Hashes the last block of a message whose first `SHA256_CBLOCK` bytes `context` has absorbed (a key
 * state): `count` bytes (at most 55) at `tail`, then SHA-256's padding (FIPS 180-4 §5.1.1): 0x80,
 * zeros, and the message's length in bits, big-endian, in the block's last 8 bytes. The block is laid
 * out in `block`, which the caller wipes. */
static inline void COpenSSL_lastBlock(SHA256_CTX *context, const uint8_t *tail, size_t count,
    uint8_t block[SHA256_CBLOCK])
{
    if (count > 0) memcpy(block, tail, count); /* an empty message's pointer may be null */
    memset(block + count, 0, SHA256_CBLOCK - count);
    block[count] = 0x80;
    uint64_t bits = (uint64_t)(SHA256_CBLOCK + count) * 8;
    for (size_t i = 0; i < 8; i++) block[SHA256_CBLOCK - 1 - i] = (uint8_t)(bits >> (8 * i));
    SHA256_Transform(context, block);
}

/* HMAC-SHA256 under `hmacKey` of `count` bytes at `message`, into `mac` (32 bytes).
 *
 * A message of up to 55 bytes (a CSRF token's is 28 bytes and the form id) fits with its padding in
 * the one block after the key's (`COpenSSL_hmacKey` absorbs exactly one block into each state), and
 * the inner digest in the one block after the outer key's: each half is then one SHA256_Transform
 * of a block laid out here. SHA256_Update and SHA256_Final would buffer, pad and wipe the same
 * block through more calls, which cost a new reader's page more than the two transforms themselves.
 * Longer messages take those calls. */
static inline void COpenSSL_hmac(const COpenSSL_HMACKey *hmacKey, const uint8_t *message, size_t count,
    uint8_t *mac)
{
    uint8_t innerDigest[SHA256_DIGEST_LENGTH];
    SHA256_CTX context = hmacKey->inner;
    if (count <= SHA256_CBLOCK - 9) {
        uint8_t block[SHA256_CBLOCK];
        COpenSSL_lastBlock(&context, message, count, block);
        COpenSSL_digest(&context, innerDigest);
        context = hmacKey->outer;
        COpenSSL_lastBlock(&context, innerDigest, sizeof innerDigest, block);
        COpenSSL_digest(&context, mac);
        COpenSSL_cleanse(block, sizeof block);
    } else {
        SHA256_Update(&context, message, count);
        SHA256_Final(innerDigest, &context);
        context = hmacKey->outer;
        SHA256_Update(&context, innerDigest, sizeof innerDigest);
        SHA256_Final(mac, &context);
    }
    COpenSSL_cleanse(&context, sizeof context);
    COpenSSL_cleanse(innerDigest, sizeof innerDigest);
}

/* Writes 16 random bytes to `out`, from a buffer of this thread's that the kernel's generator fills
 * 4 KiB at a time (glibc's arc4random_buf is getrandom(2)); each byte is handed out once and wiped.
 * A page for a new reader needs 16: a getrandom(2) per page cost more than the rest of its nonce.
 * In C for its thread-local storage, which Swift lacks: the buffer needs no lock, and no other
 * core ever writes its cache lines. (Defined in this header, so each Swift module that calls it
 * has its own buffers: Formwright calls it from FormServer alone.) */
static inline void COpenSSL_random16(uint8_t *out)
{
    /* Initial-exec, so no __tls_get_addr call: Formwright is one executable. */
    static __thread __attribute__((tls_model("initial-exec"))) uint8_t pool[4096];
    static __thread __attribute__((tls_model("initial-exec"))) size_t used = sizeof pool;
    if (used + 16 > sizeof pool) {
        arc4random_buf(pool, sizeof pool);
        used = 0;
    }
    memcpy(out, pool + used, 16);
    COpenSSL_cleanse(pool + used, 16);
    used += 16;
}

#endif
