/* HMAC-SHA256 and SHA-256 for CSRF tokens, from OpenSSL's libcrypto (Debian's libssl-dev): vetted
 * code through its EVP interfaces, which OpenSSL 3 keeps (its low-level SHA256_* calls are
 * deprecated). Two adapters, for the OSSL_PARAM list, built from macros Swift does not import. */
#ifndef FORMWRIGHT_COPENSSL_SHIM_H
#define FORMWRIGHT_COPENSSL_SHIM_H

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An HMAC-SHA256 context keyed with `count` bytes at `key` (EVP_MAC_CTX_free frees it); NULL when
 * libcrypto cannot make one. */
static inline EVP_MAC_CTX *COpenSSL_keyedHMAC(const uint8_t *key, size_t count)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac); /* the context holds its own reference */
    if (context == NULL) return NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    if (EVP_MAC_init(context, key, count, params) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}

/* The MAC of `count` bytes at `message` under `context`'s key, into `mac` (32 bytes). EVP_MAC_init
 * with no key starts a new MAC under the key set before, so a context serves MAC after MAC; one thread
 * at a time. False when libcrypto failed. */
static inline bool COpenSSL_mac(EVP_MAC_CTX *context, const uint8_t *message, size_t count, uint8_t *mac)
{
    size_t length = 0;
    return EVP_MAC_init(context, NULL, 0, NULL) == 1 && EVP_MAC_update(context, message, count) == 1
        && EVP_MAC_final(context, mac, &length, 32) == 1 && length == 32;
}

#endif
