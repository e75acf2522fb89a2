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
#include <openssl/crypto.h>
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

/* Wipes `count` bytes at `bytes` in a way the compiler cannot leave out (a dead store would be). */
static inline void COpenSSL_cleanse(void *bytes, size_t count) { OPENSSL_cleanse(bytes, count); }

/* SHA-256 of `count` bytes at `bytes`, into `digest` (32 bytes). */
static inline void COpenSSL_sha256(const uint8_t *bytes, size_t count, uint8_t *digest)
{
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
    OPENSSL_cleanse(&context, sizeof context);
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
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
}

/* HMAC-SHA256 under `hmacKey` of `count` bytes at `message`, into `mac` (32 bytes). */
static inline void COpenSSL_hmac(const COpenSSL_HMACKey *hmacKey, const uint8_t *message, size_t count,
    uint8_t *mac)
{
    SHA256_CTX context = hmacKey->inner;
    SHA256_Update(&context, message, count);
    uint8_t innerDigest[SHA256_DIGEST_LENGTH];
    SHA256_Final(innerDigest, &context);
    context = hmacKey->outer;
    SHA256_Update(&context, innerDigest, sizeof innerDigest);
    SHA256_Final(mac, &context);
    OPENSSL_cleanse(&context, sizeof context);
    OPENSSL_cleanse(innerDigest, sizeof innerDigest);
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
    OPENSSL_cleanse(pool + used, 16);
    used += 16;
}

#endif
