/*
 * bench-token.h: what bench/'s C references share to make and check Formwright's CSRF tokens, as
 * CSRFGuard does: the key is SHA-256 of FORMWRIGHT_SECRET, absorbed once into HMAC-SHA256's inner
 * and outer states (RFC 2104), and tokens and nonces are written base64url without padding.
 */
#ifndef FORMWRIGHT_BENCH_TOKEN_H
#define FORMWRIGHT_BENCH_TOKEN_H

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Absorbs the key Formwright derives from `secret` into `inner` and `outer`. */
static inline void absorb_key(const char *secret, SHA256_CTX *inner, SHA256_CTX *outer)
{
    unsigned char key[SHA256_CBLOCK] = {0}, pad[SHA256_CBLOCK];
    SHA256((const unsigned char *)secret, strlen(secret), key); /* a 32-byte key, padded with zeros */
    for (int i = 0; i < SHA256_CBLOCK; i++) pad[i] = key[i] ^ 0x36;
    SHA256_Init(inner);
    SHA256_Update(inner, pad, sizeof pad);
    for (int i = 0; i < SHA256_CBLOCK; i++) pad[i] = key[i] ^ 0x5c;
    SHA256_Init(outer);
    SHA256_Update(outer, pad, sizeof pad);
    OPENSSL_cleanse(key, sizeof key);
    OPENSSL_cleanse(pad, sizeof pad);
}

/* Writes `count` bytes base64url without padding into `out`; returns how many characters. */
static inline size_t base64url(const unsigned char *bytes, size_t count, char *out)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t n = 0, i = 0;
    for (; i + 3 <= count; i += 3) {
        uint32_t v = (uint32_t)bytes[i] << 16 | (uint32_t)bytes[i + 1] << 8 | bytes[i + 2];
        out[n++] = alphabet[v >> 18];
        out[n++] = alphabet[v >> 12 & 63];
        out[n++] = alphabet[v >> 6 & 63];
        out[n++] = alphabet[v & 63];
    }
    if (count - i == 1) {
        out[n++] = alphabet[bytes[i] >> 2];
        out[n++] = alphabet[(bytes[i] & 3) << 4];
    } else if (count - i == 2) {
        uint32_t v = (uint32_t)bytes[i] << 8 | bytes[i + 1];
        out[n++] = alphabet[v >> 10];
        out[n++] = alphabet[v >> 4 & 63];
        out[n++] = alphabet[(v & 15) << 2];
    }
    return n;
}

#endif
