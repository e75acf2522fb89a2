/* HMAC-SHA256 and SHA-256 for CSRF tokens, from OpenSSL's libcrypto (Debian's libssl-dev): vetted
 * code through its one-shot calls, HMAC() and EVP_Digest(), which OpenSSL 3 keeps (its low-level
 * SHA256_* calls are deprecated). Nothing to adapt: Swift calls them as they are. */
#ifndef FORMWRIGHT_COPENSSL_SHIM_H
#define FORMWRIGHT_COPENSSL_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#endif
