/*
 * reference-page.c: the work a server must do per request to send a form's fresh page to a new
 * reader, in C on the same libmicrohttpd daemon as the ceiling. A yardstick for the page target, not
 * a product.
 *
 * It serves the page Formwright rendered (body and header fields saved beforehand, see
 * reference-page.sh) and does per GET what Formwright's page path must do, the cheapest way C allows:
 * - a new reader's nonce: 16 random bytes, from a buffer filled 4 KiB at a time by getrandom(2),
 *   written base64url into the Set-Cookie field of a pre-built response, in place;
 * - the page's CSRF token: HMAC-SHA256 of "csrf\0event\0<nonce>" under a key absorbed once (OpenSSL,
 *   on the CPU's SHA extensions), base64url, written into the body, in place;
 * - the response comes from a per-thread pool (no lock) and returns to it when the request completes;
 * - an access-log line in Formwright's format (`<time> info formwright.access: GET /forms/event 200
 *   6354B 0.05ms 127.0.0.1:40412`), collected per thread and written to standard output 32 KiB at
 *   a time (Formwright also flushes every 200 ms, which this leaves out).
 * It leaves out everything else Formwright does per request: routing (any GET gets the page), the
 * header checks, reading a returning reader's cookie, negotiation, the locale. With ACCESS_LOG=0 in
 * its environment it writes no log, as `formwright serve --no-access-log`.
 *
 * It takes Formwright's command line (`serve --host H --port P --threads T ...`, other options
 * ignored), so bench/run.sh runs it as FORMWRIGHT_BIN; REFERENCE_PAGE and REFERENCE_HEADERS name
 * the saved body and header block, FORMWRIGHT_SECRET the secret (hashed into the key as Formwright
 * does).
 *
 * Build: cc -O2 -Wall -Wextra -o reference-page reference-page.c \
 *          $(pkg-config --cflags --libs libmicrohttpd) -lcrypto
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "bench-daemon.h"
#include "bench-token.h"

typedef enum MHD_Result MHD_RESULT;

#define NONCE_LENGTH 22 /* base64url of 16 bytes */
#define TOKEN_LENGTH 43 /* base64url of 32 bytes */
#define LOG_BATCH (32 * 1024)

static SHA256_CTX inner_key, outer_key;
static char *page;
static size_t page_length, token_offset;
static char header_names[16][64], header_values[16][512];
static int header_count, cookie_header = -1;
static size_t cookie_offset; /* where the nonce starts in the cookie's value */
static int access_log = 1;

/* One pre-built response; `token` points into its body, `nonce` into its Set-Cookie value. */
struct pooled {
    struct MHD_Response *response;
    char *token, *nonce;
    struct pooled *next;
};

/* Per worker thread: free responses, random bytes, the log batch. */
static __thread struct pooled *free_list;
static __thread unsigned char random_bytes[4096];
static __thread size_t random_used = sizeof random_bytes;
static __thread char log_batch[LOG_BATCH + 256];
static __thread size_t log_length;
static __thread time_t stamp_second;
static __thread char stamp[32];

/* A request's state from its first handler call to its completion. */
struct request {
    struct pooled *pooled;
    uint64_t start;
};

static uint64_t monotonic(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static struct pooled *build(void)
{
    struct pooled *p = calloc(1, sizeof *p);
    char *body = malloc(page_length);
    if (p == NULL || body == NULL) abort();
    memcpy(body, page, page_length);
    p->response = MHD_create_response_from_buffer(page_length, body, MHD_RESPMEM_MUST_FREE);
    if (p->response == NULL) abort();
    for (int i = 0; i < header_count; i++)
        if (MHD_add_response_header(p->response, header_names[i], header_values[i]) != MHD_YES) abort();
    p->token = body + token_offset;
    /* libmicrohttpd keeps its own copy of a field's value; the nonce is written there. */
    p->nonce = (char *)MHD_get_response_header(p->response, "Set-Cookie") + cookie_offset;
    return p;
}

static void log_line(const char *method, unsigned status, uint64_t nanoseconds, struct MHD_Connection *connection)
{
    time_t now = time(NULL);
    if (now != stamp_second) {
        struct tm parts;
        gmtime_r(&now, &parts);
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &parts);
        stamp_second = now;
    }
    char peer[64] = "-";
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info != NULL && info->client_addr->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)info->client_addr;
        char address[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &in->sin_addr, address, sizeof address);
        snprintf(peer, sizeof peer, "%s:%u", address, ntohs(in->sin_port));
    }
    unsigned long micros = (unsigned long)(nanoseconds / 1000);
    int n = snprintf(log_batch + log_length, sizeof log_batch - log_length,
                     "%s info formwright.access: %s /forms/event %u %zuB %lu.%02lums %s\n", stamp, method, status,
                     page_length, micros / 1000, micros % 1000 / 10, peer);
    if (n > 0) log_length += (size_t)n;
    if (log_length >= LOG_BATCH) {
        for (size_t done = 0; done < log_length;) {
            ssize_t written = write(1, log_batch + done, log_length - done);
            if (written <= 0) break;
            done += (size_t)written;
        }
        log_length = 0;
    }
}

static MHD_RESULT handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                         const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    (void)cls, (void)url, (void)version, (void)upload_data;
    if (*con_cls == NULL) {
        /* First call: headers only. Answering now would close the connection in 0.9.75. */
        struct request *request = malloc(sizeof *request);
        if (request == NULL) return MHD_NO;
        request->pooled = NULL;
        request->start = monotonic();
        *con_cls = request;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct request *request = *con_cls;
    struct pooled *p = free_list;
    if (p != NULL) free_list = p->next;
    else p = build();
    request->pooled = p;

    if (random_used + 16 > sizeof random_bytes) {
        if (getrandom(random_bytes, sizeof random_bytes, 0) != (ssize_t)sizeof random_bytes) abort();
        random_used = 0;
    }
    char nonce[NONCE_LENGTH + 2];
    base64url(random_bytes + random_used, 16, nonce);
    OPENSSL_cleanse(random_bytes + random_used, 16);
    random_used += 16;
    memcpy(p->nonce, nonce, NONCE_LENGTH);

    unsigned char message[11 + NONCE_LENGTH], digest[32], mac[32];
    memcpy(message, "csrf\0event\0", 11);
    memcpy(message + 11, nonce, NONCE_LENGTH);
    SHA256_CTX context = inner_key;
    SHA256_Update(&context, message, sizeof message);
    SHA256_Final(digest, &context);
    context = outer_key;
    SHA256_Update(&context, digest, sizeof digest);
    SHA256_Final(mac, &context);
    char token[TOKEN_LENGTH + 1];
    base64url(mac, sizeof mac, token);
    memcpy(p->token, token, TOKEN_LENGTH);

    (void)method;
    return MHD_queue_response(connection, MHD_HTTP_OK, p->response);
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)toe;
    struct request *request = *con_cls;
    if (request == NULL) return;
    if (request->pooled != NULL) {
        if (access_log) log_line("GET", 200, monotonic() - request->start, connection);
        request->pooled->next = free_list;
        free_list = request->pooled;
    }
    free(request);
    *con_cls = NULL;
}

static char *read_all(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *bytes = malloc(cap + 1);
    while (bytes != NULL) {
        n += fread(bytes + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        bytes = realloc(bytes, cap + 1);
    }
    fclose(f);
    if (bytes != NULL) bytes[n] = 0;
    *length = n;
    return bytes;
}

/* Reads the saved header block: every field but Date, Content-Length and Connection is sent again. */
static int read_headers(const char *path)
{
    size_t length;
    char *block = read_all(path, &length);
    if (block == NULL) return 0;
    for (char *line = strtok(block, "\r\n"); line != NULL; line = strtok(NULL, "\r\n")) {
        char *colon = strchr(line, ':');
        if (colon == NULL || header_count == 16) continue;
        *colon = 0;
        const char *value = colon + 1;
        while (*value == ' ') value++;
        if (strcasecmp(line, "Date") == 0 || strcasecmp(line, "Content-Length") == 0 ||
            strcasecmp(line, "Connection") == 0)
            continue;
        snprintf(header_names[header_count], sizeof header_names[0], "%s", line);
        snprintf(header_values[header_count], sizeof header_values[0], "%s", value);
        if (strcasecmp(line, "Set-Cookie") == 0) {
            const char *equals = strchr(value, '=');
            if (equals == NULL || strlen(equals + 1) < NONCE_LENGTH) return 0;
            cookie_header = header_count;
            cookie_offset = (size_t)(equals + 1 - value);
        }
        header_count++;
    }
    free(block);
    return cookie_header >= 0;
}

int main(int argc, char **argv)
{
    unsigned port = 0, threads = 1;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--port") == 0) port = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0) threads = (unsigned)atoi(argv[++i]);
    }
    const char *secret = getenv("FORMWRIGHT_SECRET"), *page_path = getenv("REFERENCE_PAGE"),
               *headers_path = getenv("REFERENCE_HEADERS"), *log_setting = getenv("ACCESS_LOG");
    if (port == 0 || threads == 0 || secret == NULL || page_path == NULL || headers_path == NULL) {
        fprintf(stderr, "usage: FORMWRIGHT_SECRET=... REFERENCE_PAGE=body REFERENCE_HEADERS=head "
                        "reference-page serve --port P [--threads T]\n");
        return 2;
    }
    access_log = log_setting == NULL || strcmp(log_setting, "0") != 0;
    page = read_all(page_path, &page_length);
    const char *marker = "name=\"_csrf\" value=\"";
    char *found = page ? strstr(page, marker) : NULL;
    if (found == NULL || (size_t)(found - page) + strlen(marker) + TOKEN_LENGTH > page_length) {
        fprintf(stderr, "reference-page: %s holds no CSRF token field\n", page_path);
        return 1;
    }
    token_offset = (size_t)(found - page) + strlen(marker);
    if (!read_headers(headers_path)) {
        fprintf(stderr, "reference-page: %s holds no Set-Cookie field with a nonce\n", headers_path);
        return 1;
    }

    absorb_key(secret, &inner_key, &outer_key);

    return serve_until_stopped("reference-page", port, threads, handle, completed);
}
