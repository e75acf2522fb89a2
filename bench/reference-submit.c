/*
 * reference-submit.c: the least work a server must do to answer bench/submit-event.sh's post, in C
 * on the same libmicrohttpd daemon as the ceiling. A yardstick for the submission target, not a product.
 *
 * Per POST it does a part of what Formwright does, the cheapest way C allows:
 * - keeps the body (up to 64 KiB) in one buffer;
 * - splits the urlencoded pairs and percent-decodes them in place;
 * - checks the CSRF token: HMAC-SHA256 of "csrf\0event\0<nonce from the fw_csrf cookie>" under a key
 *   absorbed once (OpenSSL, on the CPU's SHA extensions), base64url, compared in constant time;
 * - writes {"httpParameters":{...},"formValues":{...}} for the event form's twelve tags, strings
 *   escaped, options in formValues as {"value","title"} from a table, into a buffer per request;
 * - answers 200 application/json with Cache-Control: no-store, or 403/400.
 * It leaves out the rest of a submission: decoding by row type (dates read in the form's time zone
 * and written back with their offset, integers checked), the hidden condition, the six validators,
 * unknown and repeated fields, the access log. Its ratio to the ceiling therefore bounds from above
 * what any implementation of the submission can reach on this machine.
 *
 * It takes Formwright's command line (`serve --host H --port P --threads T ...`, other options
 * ignored), so bench/run.sh runs it as FORMWRIGHT_BIN=<a script that execs it>; GET answers "ok".
 * FORMWRIGHT_SECRET is the secret, hashed with SHA-256 into the key as Formwright does.
 *
 * Build: cc -O2 -Wall -Wextra -o reference-submit reference-submit.c \
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

#include <microhttpd.h>

#include "bench-daemon.h"
#include "bench-token.h"

typedef enum MHD_Result MHD_RESULT;

#define BODY_LIMIT (64 * 1024)
#define MAX_PAIRS 64

static SHA256_CTX inner_key, outer_key;
static struct MHD_Response *ok_response, *refused_response, *bad_response;
static char get_marker;

struct post_state {
    size_t length;
    char body[BODY_LIMIT];
};

struct pair {
    const char *name, *value;
    size_t name_length, value_length;
};

static int hex(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes text[0..length) in place ('+' is a space); the new length, or -1 for a bad escape. */
static long decode(char *text, size_t length)
{
    size_t out = 0;
    for (size_t i = 0; i < length; i++, out++) {
        if (text[i] == '+') {
            text[out] = ' ';
        } else if (text[i] == '%') {
            int high, low;
            if (i + 2 >= length) return -1;
            if ((high = hex(text[i + 1])) < 0 || (low = hex(text[i + 2])) < 0) return -1;
            text[out] = (char)(high << 4 | low);
            i += 2;
        } else {
            text[out] = text[i];
        }
    }
    return (long)out;
}

static int split(char *body, size_t length, struct pair *pairs)
{
    int count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= length; i++) {
        if (i < length && body[i] != '&') continue;
        if (i > start) {
            if (count == MAX_PAIRS) return -1;
            char *name = body + start, *equals = memchr(name, '=', i - start);
            size_t name_length = equals ? (size_t)(equals - name) : i - start;
            long decoded_name = decode(name, name_length), decoded_value = 0;
            if (equals) decoded_value = decode(equals + 1, (size_t)(body + i - equals - 1));
            if (decoded_name < 0 || decoded_value < 0) return -1;
            pairs[count++] = (struct pair){name, equals ? equals + 1 : "", (size_t)decoded_name, (size_t)decoded_value};
        }
        start = i + 1;
    }
    return count;
}

static const struct pair *find(const struct pair *pairs, int count, const char *name)
{
    size_t length = strlen(name);
    for (int i = 0; i < count; i++)
        if (pairs[i].name_length == length && memcmp(pairs[i].name, name, length) == 0) return &pairs[i];
    return NULL;
}

static int token_is_valid(const char *nonce, size_t nonce_length, const struct pair *token)
{
    if (token == NULL || nonce_length == 0 || nonce_length > 64) return 0;
    unsigned char message[80], digest[32], mac[32];
    memcpy(message, "csrf\0event\0", 11);
    memcpy(message + 11, nonce, nonce_length);
    SHA256_CTX context = inner_key;
    SHA256_Update(&context, message, 11 + nonce_length);
    SHA256_Final(digest, &context);
    context = outer_key;
    SHA256_Update(&context, digest, sizeof digest);
    SHA256_Final(mac, &context);
    char expected[44];
    size_t length = base64url(mac, sizeof mac, expected);
    if (token->value_length != length) return 0;
    unsigned char difference = 0;
    for (size_t i = 0; i < length; i++) difference |= (unsigned char)(expected[i] ^ token->value[i]);
    return difference == 0;
}

struct output {
    char *bytes;
    size_t length, capacity;
};

static void put(struct output *out, const char *bytes, size_t count)
{
    if (out->length + count > out->capacity) {
        out->capacity = (out->length + count) * 2;
        out->bytes = realloc(out->bytes, out->capacity);
        if (out->bytes == NULL) abort();
    }
    memcpy(out->bytes + out->length, bytes, count);
    out->length += count;
}

static void put_string(struct output *out, const char *text, size_t length)
{
    put(out, "\"", 1);
    size_t plain = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(out, text + plain, i - plain);
        char escape[7];
        int n = c == '"' || c == '\\' ? snprintf(escape, sizeof escape, "\\%c", c)
                                      : snprintf(escape, sizeof escape, "\\u%04x", c);
        put(out, escape, (size_t)n);
        plain = i + 1;
    }
    put(out, text + plain, length - plain);
    put(out, "\"", 1);
}

/* The event form's tags in payload order; `kind` 'o' marks an option row, 'b' the switch. */
static const struct {
    const char *tag;
    char kind;
} rows[] = {
    {"title", 's'}, {"location", 's'}, {"all-day", 'b'}, {"starts", 's'}, {"ends", 's'},   {"repeat", 'o'},
    {"alert", 'o'}, {"second-alert", 'o'}, {"url", 's'}, {"email", 's'},     {"guests", 'n'}, {"notes", 's'},
};

static const char *option_title(const char *value, size_t length)
{
    static const char *const table[][2] = {
        {"never", "Never"},          {"daily", "Every Day"},           {"weekly", "Every Week"},
        {"biweekly", "Every 2 Weeks"}, {"monthly", "Every Month"},      {"yearly", "Every Year"},
        {"5m", "5 minutes before"},  {"15m", "15 minutes before"},      {"30m", "30 minutes before"},
        {"1h", "1 hour before"},     {"1d", "1 day before"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i][0]) == length && memcmp(table[i][0], value, length) == 0) return table[i][1];
    return NULL;
}

static void put_value(struct output *out, char kind, const struct pair *pair, int detailed)
{
    if (kind == 'b') {
        put(out, pair ? "true" : "false", pair ? 4 : 5);
    } else if (pair == NULL) {
        put(out, "null", 4);
    } else if (kind == 'n') {
        put(out, pair->value, pair->value_length);
    } else if (kind == 'o' && detailed) {
        const char *title = option_title(pair->value, pair->value_length);
        put(out, "{\"value\":", 9);
        put_string(out, pair->value, pair->value_length);
        put(out, ",\"title\":", 9);
        if (title) put_string(out, title, strlen(title));
        else put(out, "null", 4);
        put(out, "}", 1);
    } else {
        put_string(out, pair->value, pair->value_length);
    }
}

static struct MHD_Response *answer(struct post_state *state, struct MHD_Connection *connection)
{
    struct pair pairs[MAX_PAIRS];
    int count = split(state->body, state->length, pairs);
    if (count < 0) return bad_response;
    const char *cookie = MHD_lookup_connection_value(connection, MHD_COOKIE_KIND, "fw_csrf");
    if (cookie == NULL || !token_is_valid(cookie, strlen(cookie), find(pairs, count, "_csrf")))
        return refused_response;
    struct output out = {malloc(1024), 0, 1024};
    if (out.bytes == NULL) abort();
    put(&out, "{\"httpParameters\":{", 19);
    for (int detailed = 0; detailed < 2; detailed++) {
        if (detailed) put(&out, "},\"formValues\":{", 16);
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            if (i > 0) put(&out, ",", 1);
            put_string(&out, rows[i].tag, strlen(rows[i].tag));
            put(&out, ":", 1);
            put_value(&out, rows[i].kind, find(pairs, count, rows[i].tag), detailed);
        }
    }
    put(&out, "}}", 2);
    struct MHD_Response *response = MHD_create_response_from_buffer(out.length, out.bytes, MHD_RESPMEM_MUST_FREE);
    if (response == NULL || MHD_add_response_header(response, "Content-Type", "application/json") != MHD_YES ||
        MHD_add_response_header(response, "Cache-Control", "no-store") != MHD_YES)
        abort();
    return response;
}

static MHD_RESULT handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                         const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    (void)cls, (void)url, (void)version;
    if (*con_cls == NULL) {
        if (strcmp(method, "POST") != 0) {
            *con_cls = &get_marker;
            return MHD_YES;
        }
        struct post_state *state = malloc(sizeof *state);
        if (state == NULL) return MHD_NO;
        state->length = 0;
        *con_cls = state;
        return MHD_YES;
    }
    if (*con_cls == &get_marker) return MHD_queue_response(connection, MHD_HTTP_OK, ok_response);
    struct post_state *state = *con_cls;
    if (*upload_data_size != 0) {
        size_t room = BODY_LIMIT - state->length, take = *upload_data_size < room ? *upload_data_size : room;
        memcpy(state->body + state->length, upload_data, take);
        state->length += take;
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response = answer(state, connection);
    unsigned status = response == refused_response ? 403 : response == bad_response ? 400 : 200;
    MHD_RESULT queued = MHD_queue_response(connection, status, response);
    if (status == 200) MHD_destroy_response(response);
    return queued;
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)connection, (void)toe;
    if (*con_cls != NULL && *con_cls != &get_marker) free(*con_cls);
    *con_cls = NULL;
}

static struct MHD_Response *fixed(const char *body, const char *content_type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (r == NULL || MHD_add_response_header(r, "Content-Type", content_type) != MHD_YES) abort();
    return r;
}

int main(int argc, char **argv)
{
    unsigned port = 0, threads = 1;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--port") == 0) port = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0) threads = (unsigned)atoi(argv[++i]);
    }
    const char *secret = getenv("FORMWRIGHT_SECRET");
    if (port == 0 || threads == 0 || secret == NULL) {
        fprintf(stderr, "usage: FORMWRIGHT_SECRET=... reference-submit serve --port P [--threads T]\n");
        return 2;
    }
    absorb_key(secret, &inner_key, &outer_key);

    ok_response = fixed("ok", "text/plain");
    refused_response = fixed("{\"errors\":[{\"code\":\"csrf\"}]}", "application/json");
    bad_response = fixed("{\"errors\":[{\"code\":\"body\"}]}", "application/json");

    return serve_until_stopped("reference-submit", port, threads, handle, completed);
}
